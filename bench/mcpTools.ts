import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Scope } from '@gp-gateway/gateway';
import { tempStore } from '@gp-gateway/gateway/testing';
import { startSilentGateway } from './silentGateway.ts';

/**
 * `pnpm bench:mcp`: what an MCP host hands its model on every turn before anything is asked, the
 * `tools/list` answer, for a key that reads and for one that also writes (issue 35: under 6,000
 * characters with `write`, once 22,679). Sizes, not times: the same on every machine, so the run is
 * short and its figures are exact.
 */
const TARGET_CHARACTERS = 6_000;

async function main() {
  const { store, admin, dispose } = await tempStore();
  const gateway = await startSilentGateway(store, 5_000);
  try {
    const org = await admin.createOrganisation('Bench MCP');
    const rows: string[] = ['| key scopes | tools | tools/list characters | about tokens |', '|---|---:|---:|---:|'];
    let withWrite = 0;
    for (const scopes of [
      ['read', 'mcp'],
      ['read', 'write', 'mcp'],
    ] satisfies Scope[][]) {
      const { secret } = await admin.issueApiKey({ orgId: org.id, name: scopes.join('+'), mode: 'test', scopes });
      const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${secret}` } },
        }),
      );
      const { tools } = await client.listTools();
      await client.close();
      // What a host serialises into the model's context: the tools as JSON.
      const characters = JSON.stringify(tools).length;
      if (scopes.includes('write')) withWrite = characters;
      rows.push(
        `| ${scopes.join(', ')} | ${tools.length} | ${characters.toLocaleString('en')} | ${Math.round(characters / 4).toLocaleString('en')} |`,
      );
    }
    console.log(rows.join('\n'));
    console.log(
      `\nTarget (issue 35): ${withWrite < TARGET_CHARACTERS ? 'met' : 'NOT MET'}: tools/list for a key with write under ${TARGET_CHARACTERS.toLocaleString('en')} characters (${withWrite.toLocaleString('en')})`,
    );
  } finally {
    await gateway.close();
    await dispose();
  }
}

await main();

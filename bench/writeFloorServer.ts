import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SqliteWriter, WriteService } from '@gp-gateway/agent';
import type { WritableObjectName } from '@gp-gateway/protocol';

/**
 * The floor the gateway's writes are measured against: the agent's own write path (WriteService:
 * the body checked with the protocol's schema, then SqliteWriter: references, numbers, rows, batch,
 * journal row and read-back in one transaction) on its own copy of the same demo database, behind a
 * bare node:http server in its own process: no gateway, no agent hop, no auth, no Idempotency-Key.
 *
 * Why behind HTTP rather than calling SqliteWriter.write in the bench's process: both sides are then
 * driven by the same load generator over loopback, so the client's and HTTP's cost (which any server
 * pays) count on both sides and the gap is only what the gateway and the hop add; and a synchronous
 * call has no "concurrency 16" (it runs one write at a time in the caller's event loop), where a
 * server queues 16 clients' requests as the agent does. Its own process also keeps it off the
 * load generator's CPU, like the agent.
 * POST /v1/{object} with the JSON body → 201 {"data": <the record as the agent reads it back>}.
 */
const [dir, portArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: writeFloorServer.ts <demo dir> [port]');
const service = new WriteService(new SqliteWriter({ dir, readonly: false }), { allowWrites: true });

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const [, version, object] = new URL(req.url ?? '/', 'http://floor').pathname.split('/');
    const answer = async () => {
      if (req.method !== 'POST' || version !== 'v1' || !object) throw new Error('no route');
      const done = await service.write({
        kind: 'write',
        object: object as WritableObjectName,
        company: 'TWO',
        operationId: `op_${randomBytes(16).toString('base64url')}`,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
        validateOnly: false,
      });
      return `{"data":${done.payload}}`;
    };
    answer().then(
      (body) => res.writeHead(201, { 'content-type': 'application/json' }).end(body),
      (error: Error) =>
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: error.message, details: (error as any).details })),
    );
  });
});
server.listen(Number(portArg ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});

import { after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { runGatewayCli, startGatewayProcess, type Started } from './processes.ts';

/** Debian's chromium, which playwright-core drives (.ci/run installs it). */
const CHROMIUM = '/usr/bin/chromium';

/** The browser tests' `skip`: false where chromium is installed; elsewhere why, said once on the console too. */
export const chromiumSkip = fs.existsSync(CHROMIUM) ? false : `no ${CHROMIUM}`;
if (chromiumSkip)
  console.warn(`\n*** SKIPPED: the dashboard browser tests need ${CHROMIUM} (apt-get install chromium; .ci/run installs it) ***\n`);

/** A test file's real gateway process (its own data folder) and chromium; the fields are set by `start`. */
export interface BrowserGateway {
  /** Starts the gateway and chromium: the first step of the file's `before` (node:test runs a file's `before` hooks at once, not in turn). */
  start(): Promise<void>;
  dataDir: string;
  gateway: Started & { url: string; testKey: string };
  browser: Browser;
  /** Agent processes the file starts: stopped after the browser and before the gateway. */
  readonly agents: Started[];
  /** Runs `gp-gateway <args>` on this gateway's data folder, as an operator would; fails the test if it fails. */
  operator(...args: string[]): Promise<string>;
}

/** The gateway (started with `env`) and chromium of a test file, stopped after its tests. */
export function browserGateway(
  dataDirPrefix: string,
  options: { env?: NodeJS.ProcessEnv; agentStopSignal?: NodeJS.Signals } = {},
): BrowserGateway {
  const rig = {
    agents: [] as Started[],
    async start() {
      rig.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), dataDirPrefix));
      rig.gateway = await startGatewayProcess(rig.dataDir, options.env);
      rig.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    },
    async operator(...args: string[]) {
      const run = await runGatewayCli(args, { DATA_DIR: rig.dataDir });
      assert.equal(run.code, 0, run.stderr);
      return run.stdout;
    },
  } as BrowserGateway;
  after(async () => {
    await rig.browser?.close();
    for (const agent of rig.agents) await agent.stop(options.agentStopSignal);
    await rig.gateway?.stop();
    if (rig.dataDir) fs.rmSync(rig.dataDir, { recursive: true, force: true });
  });
  return rig;
}

/** The sign-in link `gp-gateway user create` prints. */
export const welcomeLinkIn = (text: string) => /(http:\/\/\S+\/dashboard\/welcome\?token=lb_link_\w+)/.exec(text)![1]!;

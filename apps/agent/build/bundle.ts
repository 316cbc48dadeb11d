import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const AGENT_SRC = path.resolve(HERE, '../src');

/** The Node the programs embed; the bundles are compiled for it. */
const TARGET = 'node22';

/**
 * Modules that find a worker thread's code next to themselves on disk (`new URL('./x', import.meta.url)`).
 * A single-file program has no files beside it: the build bundles each worker's code apart, and puts
 * it in place of that expression as a `data:` URL, which Node loads as an ES module (worker threads
 * and `import()` both take one). If a module stops reading the expression exactly like this, the
 * build fails here rather than shipping a program whose threads cannot start.
 */
const THREAD_CODE = [
  {
    file: 'db/sqliteWorkerPool.ts',
    expression: "fileURLToPath(new URL('./sqliteWorkerBootstrap.mjs', import.meta.url))",
    entry: 'db/sqliteWorker.ts',
  },
  {
    file: 'service/threadedReadService.ts',
    expression: "new URL('./readServiceThread.ts', import.meta.url)",
    entry: 'service/readServiceThread.ts',
  },
] as const;

export interface BundleOptions {
  commit: string;
  /** The release key's public half (PEM), which `gp-agent update` trusts; null for a build without a release key. */
  releasePublicKey: string | null;
  /** Where the bundles go (a scratch folder). */
  outDir: string;
}

function common(commit: string, releasePublicKey: string | null = null): esbuild.BuildOptions {
  return {
    bundle: true,
    platform: 'node',
    target: TARGET,
    minify: true,
    keepNames: true,
    legalComments: 'none',
    logLevel: 'warning',
    // better-sqlite3 is a native module; Node 22's built-in node:sqlite does the same reads.
    alias: { 'better-sqlite3': path.join(HERE, 'nodeSqliteDatabase.ts') },
    define: {
      GP_AGENT_BUILD_COMMIT: JSON.stringify(commit),
      GP_AGENT_RELEASE_PUBLIC_KEY: JSON.stringify(releasePublicKey),
    },
  };
}

/** An ES module with everything but Node's own modules inside, as a `data:` URL. */
async function threadModule(entry: string, commit: string): Promise<string> {
  const result = await esbuild.build({
    ...common(commit),
    entryPoints: [path.join(AGENT_SRC, entry)],
    format: 'esm',
    write: false,
  });
  const code = result.outputFiles[0]!.text;
  return `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`;
}

/** Swaps each module's on-disk thread code for the bundled one (THREAD_CODE). */
function threadCodePlugin(urls: Map<string, string>): esbuild.Plugin {
  return {
    name: 'thread-code',
    setup(build) {
      for (const { file, expression } of THREAD_CODE) {
        const absolute = path.join(AGENT_SRC, file);
        build.onLoad({ filter: new RegExp(`${path.basename(file).replace('.', '\\.')}$`) }, (args) => {
          if (args.path !== absolute) return undefined;
          const source = fs.readFileSync(absolute, 'utf8');
          if (!source.includes(expression))
            throw new Error(`${file} no longer reads its thread code as ${expression}: update THREAD_CODE in apps/agent/build/bundle.ts`);
          return { contents: source.replace(expression, `new URL(${JSON.stringify(urls.get(file))})`), loader: 'ts' };
        });
      }
    },
  };
}

/**
 * The agent's CLI as one CommonJS file (what a Node single-executable application runs), with its
 * worker threads' code inside it. Returns the file's path.
 */
export async function bundleAgent({ commit, outDir, releasePublicKey }: BundleOptions): Promise<string> {
  const urls = new Map<string, string>();
  for (const { file, entry } of THREAD_CODE) urls.set(file, await threadModule(entry, commit));
  const outfile = path.join(outDir, 'gp-agent.cjs');
  await esbuild.build({
    ...common(commit, releasePublicKey),
    entryPoints: [path.join(AGENT_SRC, 'cli/main.ts')],
    format: 'cjs',
    outfile,
    plugins: [threadCodePlugin(urls)],
  });
  return outfile;
}

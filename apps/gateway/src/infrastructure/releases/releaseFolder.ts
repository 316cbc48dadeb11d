import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import {
  RELEASE_MANIFEST_FILE,
  RELEASE_PUBLIC_KEY_FILES,
  RELEASE_SIGNATURE_FILE,
  RELEASE_SUMS_FILE,
  ReleaseManifestSchema,
  parseSums,
  type ReleaseManifest,
} from '@gp-gateway/protocol';

/** What the folder holds at one moment: the manifest, and the checksums SHA256SUMS lists. */
export interface Release {
  manifest: ReleaseManifest;
  /** File name → SHA-256, from SHA256SUMS (the signed list), empty when there is none. */
  sums: ReadonlyMap<string, string>;
  /** Whether SHA256SUMS.sig is there: without it, agents refuse to update from this release. */
  signed: boolean;
}

/**
 * The agent's release folder (RELEASE_DIR, DATA_DIR/releases by default): what `pnpm build:agent`
 * wrote to dist/, copied here by the operator. The gateway serves its files at /downloads and names
 * its version to agents as the latest. The manifest is read again when it changes on disk (one stat
 * per call), so copying a new release in needs no restart; a folder without a valid manifest is no
 * release, said once in the log.
 */
export class ReleaseFolder {
  private cached: { key: string; release: Release | null } | null = null;

  constructor(
    readonly dir: string,
    private readonly log?: Logger,
  ) {}

  /** The release in the folder, or null when there is none (no folder, no manifest, or one that does not parse). */
  current(): Release | null {
    const manifestPath = path.join(this.dir, RELEASE_MANIFEST_FILE);
    let key: string;
    try {
      const stat = fs.statSync(manifestPath);
      const sums = fs.statSync(path.join(this.dir, RELEASE_SUMS_FILE), { throwIfNoEntry: false });
      key = `${stat.mtimeMs}:${stat.size}:${sums?.mtimeMs}:${sums?.size}`;
    } catch {
      this.cached = null;
      return null;
    }
    if (this.cached?.key === key) return this.cached.release;
    this.cached = { key, release: this.read(manifestPath) };
    return this.cached.release;
  }

  /** The newest agent version this gateway offers, or null without a release. */
  latestVersion(): string | null {
    return this.current()?.manifest.version ?? null;
  }

  /**
   * The path of a file the folder serves, or null. Only names the release declares are served (the
   * manifest's files, the manifest, SHA256SUMS, its signature and the public key files), so no name
   * that comes in a URL ever becomes a path of its own: nothing else of the folder, or outside it, is reachable.
   */
  servedPath(name: string): string | null {
    const release = this.current();
    if (!release) return null;
    const declared =
      release.manifest.files.some((file) => file.name === name) ||
      [RELEASE_MANIFEST_FILE, RELEASE_SUMS_FILE, RELEASE_SIGNATURE_FILE, ...RELEASE_PUBLIC_KEY_FILES].includes(name);
    if (!declared) return null;
    const file = path.join(this.dir, name);
    return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : null;
  }

  private read(manifestPath: string): Release | null {
    try {
      const manifest = ReleaseManifestSchema.parse(JSON.parse(fs.readFileSync(manifestPath, 'utf8')));
      const sumsText = fs.readFileSync(path.join(this.dir, RELEASE_SUMS_FILE), { encoding: 'utf8', flag: 'r' });
      const signed = fs.existsSync(path.join(this.dir, RELEASE_SIGNATURE_FILE));
      this.log?.info({ dir: this.dir, version: manifest.version, commit: manifest.commit, signed }, 'agent release folder read');
      return { manifest, sums: parseSums(sumsText), signed };
    } catch (error) {
      this.log?.warn(
        { dir: this.dir, err: error instanceof Error ? error.message : String(error) },
        'the agent release folder holds no valid manifest.json and SHA256SUMS (what pnpm build:agent writes): no downloads are served',
      );
      return null;
    }
  }
}

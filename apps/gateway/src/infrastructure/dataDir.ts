import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { demoDatabasePaths, generateDemo } from '@gp-gateway/gp-demo';

// Kept apart so that the operator CLI can find the store without loading the demo generator.
export { dataPaths } from './dataPaths.ts';

/** The key that signs cursors; made once, so cursors survive a restart. */
export function loadOrCreateCursorKey(file: string): Buffer {
  if (fs.existsSync(file)) return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  const key = randomBytes(32);
  fs.writeFileSync(file, key.toString('hex'), { mode: 0o600 });
  return key;
}

/** Generates the demo databases on first start (reporting progress); later starts reuse them. True when it generated. */
export function ensureDemo(dir: string, scale: number, progress: (line: string) => void): boolean {
  if (fs.existsSync(demoDatabasePaths(dir).systemDatabase)) return false;
  let last = 0;
  generateDemo({
    dir,
    scale,
    onProgress: ({ phase, done, total }) => {
      const now = Date.now();
      if (now - last < 500 && done < total) return;
      last = now;
      progress(`generating the demo database: ${phase} ${done.toLocaleString('en')}/${total.toLocaleString('en')}`);
    },
  });
  return true;
}

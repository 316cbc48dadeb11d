import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downloadUrl } from './gatewayDownloads.ts';

test("release files are fetched from the gateway's /downloads, under the base URL's path, whatever the scheme the configuration names", () => {
  assert.equal(downloadUrl('https://gw.example.com', 'SHA256SUMS'), 'https://gw.example.com/downloads/SHA256SUMS');
  assert.equal(downloadUrl('https://gw.example.com/gp/', 'manifest.json'), 'https://gw.example.com/gp/downloads/manifest.json');
  assert.equal(downloadUrl('wss://gw.example.com', 'gp-agent-linux-x64'), 'https://gw.example.com/downloads/gp-agent-linux-x64');
  assert.equal(downloadUrl('http://127.0.0.1:3000?x=1', 'a b'), 'http://127.0.0.1:3000/downloads/a%20b');
});

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from '../../../testing/tempStore.ts';
import { createUser, newSignInLink } from './user.ts';

const { store, admin, dispose } = await tempStore();
after(dispose);

const LINK = /^(\S+)\/dashboard\/welcome\?token=\S+$/;

test("user create's link names the gateway on PORT when no address is given, and says how to give the public one", async () => {
  await admin.createOrganisation('Acme Ltd');
  const lines = await createUser(admin, { org: 'Acme Ltd', email: 'ops@acme.example', role: 'admin' }, { PORT: '8443' });
  const link = lines.find((l) => LINK.test(l))!;
  assert.equal(LINK.exec(link)![1], 'http://localhost:8443');
  assert.match(lines.at(-1)!, /opens only on this machine.*--gateway-url https:\/\/gateway\.example\.com \(or set GATEWAY_URL\)/);
});

test('with --gateway-url (or GATEWAY_URL) the link names that address, and nothing more is said', async () => {
  const lines = await newSignInLink(
    admin,
    { org: 'Acme Ltd', email: 'OPS@acme.example', gatewayUrl: 'https://gw.acme.example/' },
    { PORT: '8443' },
  );
  const link = lines.find((l) => LINK.test(l))!;
  assert.equal(LINK.exec(link)![1], 'https://gw.acme.example');
  assert.ok(!lines.some((l) => l.includes('opens only on this machine')));
});

test('an address that is not http(s) is refused before any user is made', async () => {
  await assert.rejects(
    createUser(admin, { org: 'Acme Ltd', email: 'new@acme.example', role: 'admin', gatewayUrl: 'gw.acme.example' }, {}),
    {
      message: 'GATEWAY_URL must be an absolute URL, e.g. https://gateway.example.com, not "gw.acme.example"',
    },
  );
  await assert.rejects(createUser(admin, { org: 'Acme Ltd', email: 'new@acme.example', role: 'admin', gatewayUrl: 'ftp://gw' }, {}), {
    message: 'GATEWAY_URL must start with https:// (e.g. https://gateway.example.com), not "ftp://"',
  });
  await assert.rejects(
    createUser(admin, { org: 'Acme Ltd', email: 'new@acme.example', role: 'admin', gatewayUrl: 'http://gw.acme.example' }, {}),
    { message: /GATEWAY_URL must start with https:\/\/ unless it names this machine/ },
  );
  const org = (await store.findOrganisationByName('Acme Ltd'))!;
  assert.deepEqual(
    (await admin.listUsers(org.id)).map((u) => u.email),
    ['ops@acme.example'],
  );
});

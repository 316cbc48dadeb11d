import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTarget, type HostResolver } from './safeTarget.ts';

/**
 * Every target is checked through a stub resolver: no test here looks a name up or opens a
 * connection (checkTarget itself never connects; the sender connects only to what it answered).
 */
const resolvingTo =
  (...addresses: string[]): HostResolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const publicName = resolvingTo('93.184.215.14');

const refusal = async (url: string, resolve: HostResolver = publicName, allowPrivate = false) => {
  try {
    await checkTarget(url, { resolve, allowPrivate });
  } catch (error) {
    return (error as Error).message;
  }
  return null;
};

test('each address that is not public is refused, saying which and why', async () => {
  const cases: [string, string][] = [
    ['https://127.0.0.1/hooks', 'refused: 127.0.0.1 is a loopback address'],
    ['https://[::1]/hooks', 'refused: ::1 is a loopback address'],
    ['https://10.0.0.1/hooks', 'refused: 10.0.0.1 is a private address'],
    ['https://192.168.1.20/hooks', 'refused: 192.168.1.20 is a private address'],
    ['https://172.16.5.5/hooks', 'refused: 172.16.5.5 is a private address'],
    ['https://169.254.169.254/latest/meta-data/', 'refused: 169.254.169.254 is a cloud metadata address'],
    ['https://169.254.10.10/', 'refused: 169.254.10.10 is a link-local address'],
    ['https://[fd00:ec2::254]/', 'refused: fd00:ec2::254 is a cloud metadata address'],
    ['https://[fc00::5]/', 'refused: fc00::5 is a unique-local address'],
    ['https://[fe80::1]/', 'refused: fe80::1 is a link-local address'],
    ['https://224.0.0.1/', 'refused: 224.0.0.1 is a multicast address'],
    ['https://[ff02::1]/', 'refused: ff02::1 is a multicast address'],
    ['https://0.0.0.0/', 'refused: 0.0.0.0 is an unspecified address'],
    ['https://[::]/', 'refused: :: is an unspecified address'],
    ['https://[::ffff:127.0.0.1]/', 'refused: ::ffff:7f00:1 is a loopback address'],
    ['https://[::ffff:169.254.169.254]/', 'refused: ::ffff:a9fe:a9fe is a cloud metadata address'],
    ['https://[::ffff:10.0.0.1]/', 'refused: ::ffff:a00:1 is a private address'],
  ];
  for (const [url, message] of cases) assert.equal(await refusal(url), message, url);
});

test('a name is resolved at each check and refused when any address it has is not public', async () => {
  let asked = 0;
  const flipping: HostResolver = async () =>
    ++asked === 1 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
  const first = await checkTarget('https://hooks.example.com/gp', { resolve: flipping, allowPrivate: false });
  assert.deepEqual([first.address, first.family, first.url.hostname], ['93.184.215.14', 4, 'hooks.example.com']);
  assert.equal(
    await refusal('https://hooks.example.com/gp', flipping),
    'refused: hooks.example.com resolves to 127.0.0.1 is a loopback address',
    'the same name, resolved again, now points inside',
  );
  assert.equal(
    await refusal('https://mixed.example.com/', resolvingTo('93.184.215.14', '10.1.2.3')),
    'refused: mixed.example.com resolves to 10.1.2.3 is a private address',
  );
  assert.equal(
    await refusal('https://mapped.example.com/', resolvingTo('::ffff:127.0.0.1')),
    'refused: mapped.example.com resolves to ::ffff:127.0.0.1 is a loopback address',
  );
  const failing: HostResolver = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  assert.equal(await refusal('https://nowhere.example/', failing), 'nowhere.example could not be resolved (ENOTFOUND)');
});

test('https only, no credentials in the URL; the development setting allows http and loopback but never metadata', async () => {
  assert.equal(await refusal('http://hooks.example.com/'), 'only https URLs are sent to (http refused)');
  assert.equal(await refusal('ftp://hooks.example.com/'), 'only https URLs are sent to (ftp refused)');
  assert.equal(await refusal('https://user:pw@hooks.example.com/'), 'a URL with a user name or password is refused');
  assert.equal(await refusal('http://127.0.0.1:8080/', publicName, true), null);
  assert.equal(await refusal('http://10.0.0.1/', publicName, true), null);
  assert.equal(await refusal('http://169.254.169.254/', publicName, true), 'refused: 169.254.169.254 is a cloud metadata address');
  assert.equal(await refusal('https://93.184.215.14/'), null, 'a public address is sent to');
});

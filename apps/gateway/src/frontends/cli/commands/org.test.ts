import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempStore } from '../../../testing/tempStore.ts';
import { createOrganisation, listOrganisations, setOrganisationLimits } from './org.ts';

const { store, admin, dispose } = await tempStore();
after(dispose);

test('org create names the new organisation and its id, and says what to do next', async () => {
  const lines = await createOrganisation(admin, '  Acme Ltd ');
  const org = (await store.findOrganisationByName('Acme Ltd'))!;
  assert.deepEqual(lines, [
    `Created organisation "Acme Ltd" (${org.id}).`,
    'It has a sandbox connection (id: sandbox) over the demo data, which its test keys use.',
    '',
    'Next, create a key:',
    `  gp-gateway key create --org ${org.id} --name "Production" --mode live --scopes read`,
  ]);
  assert.deepEqual(
    (await store.listConnections(org.id)).map((c) => c.id),
    ['sandbox'],
  );
  await assert.rejects(createOrganisation(admin, 'Acme Ltd'), { message: `an organisation named "Acme Ltd" already exists: ${org.id}` });
  await assert.rejects(createOrganisation(admin, '  '), { message: 'the organisation needs a name' });
});

test('org set-limits changes what is given, validates it, and --reset goes back to the defaults', async () => {
  const org = await admin.createOrganisation('Limited');
  assert.deepEqual(await setOrganisationLimits(admin, 'Limited', { requests: '300', inFlight: '2' }), [
    `Limits of "Limited" (${org.id}): 300 requests per 10 s per key, 2 in flight per connection (set here: --requests, --in-flight; the rest are defaults).`,
    'Running gateways apply this within 5 seconds.',
  ]);
  await assert.rejects(setOrganisationLimits(admin, org.id, { window: '0' }), {
    message: '--window must be a whole number from 1 to 86,400, not "0"',
  });
  await assert.rejects(setOrganisationLimits(admin, org.id, { requests: '1.5' }), {
    message: '--requests must be a whole number from 1 to 1,000,000, not "1.5"',
  });
  await assert.rejects(setOrganisationLimits(admin, org.id, {}), {
    message: 'say what to change: --requests, --window, --in-flight or --reset (see --help)',
  });
  await assert.rejects(setOrganisationLimits(admin, 'Nobody', { requests: '5' }), {
    message: 'there is no organisation with the id or name "Nobody". See them all with: gp-gateway org list',
  });
  assert.deepEqual(await setOrganisationLimits(admin, org.id, { reset: true, window: '60' }), [
    `Limits of "Limited" (${org.id}): 100 requests per 60 s per key, 8 in flight per connection (set here: --window; the rest are defaults).`,
    'Running gateways apply this within 5 seconds.',
  ]);
});

test('org list shows every organisation with its limits', async () => {
  const lines = await listOrganisations(admin);
  const [acme, limited] = await store.listOrganisations();
  assert.equal(lines.length, 3);
  assert.match(lines[0]!, /^ID +NAME +CREATED +LIMITS$/);
  assert.match(
    lines[1]!,
    new RegExp(
      `^${acme!.id} +Acme Ltd +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC +100 requests per 10 s per key, 8 in flight per connection \\(the defaults\\)$`,
    ),
  );
  assert.match(
    lines[2]!,
    new RegExp(
      `^${limited!.id} +Limited +.* UTC +100 requests per 60 s per key, 8 in flight per connection \\(set here: --window; the rest are defaults\\)$`,
    ),
  );
});

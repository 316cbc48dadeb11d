import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Request, Response } from 'express';
import { tempStore } from '../../testing/tempStore.ts';
import { ApiError } from '../../errors/apiError.ts';
import { authenticate } from './authenticate.ts';
import { overlapEnd, rotationOverlapNamed } from './rotationOverlap.ts';

const opened: Awaited<ReturnType<typeof tempStore>>[] = [];
after(() => Promise.all(opened.map((s) => s.dispose())));

/** What `authenticate` does with `secret` at `nowMs`: 'through' or the error code it throws. */
async function answerTo(check: ReturnType<typeof authenticate>, secret: string): Promise<string> {
  const req = { headers: { authorization: `Bearer ${secret}` }, socket: { remoteAddress: '127.0.0.1' } } as unknown as Request;
  const res = { locals: {} } as unknown as Response;
  try {
    let passed = false;
    await check(req, res, () => (passed = true));
    return passed ? 'through' : 'stopped';
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
}

test('the overlaps offered are now, 1 h, 24 h and 7 d; anything else is refused', () => {
  assert.deepEqual(['now', '1H', ' 24h ', '7d', '30d', '', '1 hour'].map(rotationOverlapNamed), [
    'now',
    '1h',
    '24h',
    '7d',
    null,
    null,
    null,
  ]);
  const at = new Date('2026-01-01T00:00:00Z');
  assert.equal(overlapEnd('now', at), null);
  assert.equal(overlapEnd('24h', at)?.toISOString(), '2026-01-02T00:00:00.000Z');
  assert.equal(overlapEnd('7d', at)?.toISOString(), '2026-01-08T00:00:00.000Z');
});

test("a rotated key's old secret opens it until the overlap's end, then gets 401, though the key is remembered and nothing in the store changed", async () => {
  const subject = await tempStore();
  opened.push(subject);
  const org = await subject.admin.createOrganisation('Overlap Ltd');
  const { key, secret: old } = await subject.admin.issueApiKey({ orgId: org.id, name: 'CI', mode: 'test', scopes: ['read'] });
  const rotated = (await subject.admin.rotateApiKey(org.id, key.id, { liveAllowed: true, keepOldFor: '1h' }))!;
  const end = rotated.oldWorksUntil!.getTime();
  assert.ok(Math.abs(end - (Date.now() + 3600_000)) < 60_000, 'an hour from now');

  let now = end - 1;
  const check = authenticate(subject.store, null, () => now);
  assert.equal(await answerTo(check, old), 'through', 'the old secret, a millisecond before the end');
  assert.equal(await answerTo(check, rotated.secret), 'through', 'the new secret');
  now = end;
  assert.equal(await answerTo(check, old), 'UNAUTHORIZED', 'the old secret at the end (answered from the remembered key)');
  assert.equal(await answerTo(check, rotated.secret), 'through', 'the new secret goes on');

  // A second rotation ends the first one's old secret at once, whatever its end.
  now = end - 1;
  const again = (await subject.admin.rotateApiKey(org.id, key.id, { liveAllowed: true, keepOldFor: '24h' }))!;
  assert.equal(await answerTo(check, old), 'UNAUTHORIZED', 'two rotations ago');
  assert.equal(await answerTo(check, rotated.secret), 'through', 'one rotation ago, in its overlap');
  assert.equal(await answerTo(check, again.secret), 'through');
  // Ended early by an admin, or revoked: the old secret stops at once.
  await subject.admin.endApiKeyOverlap(org.id, key.id);
  assert.equal(await answerTo(check, rotated.secret), 'UNAUTHORIZED', 'ended early');
  const third = (await subject.admin.rotateApiKey(org.id, key.id, { liveAllowed: true, keepOldFor: '7d' }))!;
  await subject.admin.revokeApiKey(key.id);
  assert.equal(await answerTo(check, again.secret), 'UNAUTHORIZED', 'revoked: the old secret too');
  assert.equal(await answerTo(check, third.secret), 'UNAUTHORIZED', 'and the new one');
});

test('an agent token rotated with an overlap still opens its connection until the end; one rotated while revoked keeps nothing', async () => {
  const subject = await tempStore();
  opened.push(subject);
  const org = await subject.admin.createOrganisation('Agents Ltd');
  const { connection } = await subject.admin.createConnection({ orgId: org.id, name: 'Plant' });
  const before = await subject.store.findConnection(org.id, connection.id);
  const rotated = await subject.admin.rotateAgentToken(org.id, connection.id, '24h');
  const end = rotated.oldWorksUntil!;
  const { store } = subject;
  assert.equal((await store.findConnectionByAgentTokenHash(before!.agentTokenHash!, new Date(end.getTime() - 1)))?.id, connection.id);
  assert.equal(await store.findConnectionByAgentTokenHash(before!.agentTokenHash!, end), null);
  await subject.admin.revokeAgentToken(org.id, connection.id);
  const reissued = await subject.admin.rotateAgentToken(org.id, connection.id, '24h');
  assert.equal(reissued.oldWorksUntil, null, 'a revoked token is not brought back by an overlap');
  const audit = await subject.admin.listAudit(org.id);
  assert.deepEqual(audit.find((e) => e.action === 'connection.agent-token.rotated' && e.details?.oldWorksUntil)?.details, {
    oldWorksUntil: end.toISOString(),
  });
});

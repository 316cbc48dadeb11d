import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOSE_SERVICE_RESTART, CLOSE_TRY_AGAIN_LATER, withReconnectHint } from '@gp-gateway/protocol';
import { backoffDelay, MAX_HINTED_WAIT_MS, nextReconnect, type ConnectionEnd } from './reconnectPolicy.ts';

const t = { backoffMinMs: 500, backoffMaxMs: 30_000, heartbeatTimeoutMs: 30_000 };
const top = () => 1;
const dropped: ConnectionEnd = { code: 1006, reason: 'closed with code 1006', welcomed: false, upMs: 0 };

test('reconnect delays double from the minimum up to the cap, each drawn uniformly below it (full jitter)', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 6, 7, 40].map((n) => backoffDelay(n, t, top)),
    [500, 1000, 2000, 4000, 30_000, 30_000, 30_000],
  );
  assert.deepEqual(
    [0, 3, 6].map((n) => backoffDelay(n, t, () => 0.5)),
    [250, 2000, 15_000],
  );
  assert.deepEqual(
    [0, 6].map((n) => backoffDelay(n, t, () => 0)),
    [0, 0],
  );
});

test('a connection that fails keeps growing the backoff; one that stayed up starts it over', () => {
  assert.deepEqual(nextReconnect(4, dropped, t, top), { delayMs: 8_000, attempt: 5 });
  // Welcomed but dropped at once: a gateway that accepts and then fails is not hammered.
  assert.deepEqual(nextReconnect(4, { ...dropped, welcomed: true, upMs: 2_000 }, t, top), { delayMs: 8_000, attempt: 5 });
  assert.deepEqual(nextReconnect(4, { ...dropped, welcomed: true, upMs: 60_000 }, t, top), { delayMs: 500, attempt: 1 });
});

test('a deploy (1012 after a welcome) starts over at once, spread over the window the gateway names', () => {
  const restart = (reason: string): ConnectionEnd => ({ code: CLOSE_SERVICE_RESTART, reason, welcomed: true, upMs: 1_000 });
  // However short the connection and however many failures before it.
  assert.deepEqual(nextReconnect(7, restart('gateway restarting; reconnect'), t, top), { delayMs: 500, attempt: 1 });
  const hinted = restart(withReconnectHint('gateway restarting; reconnect', { withinMs: 12_500 }));
  assert.deepEqual(nextReconnect(7, hinted, t, top), { delayMs: 12_500, attempt: 1 });
  assert.equal(nextReconnect(7, hinted, t, () => 0.5).delayMs, 6_250);
  // Never less than the smallest bound, never longer than a hint may park an agent.
  assert.equal(nextReconnect(0, restart(withReconnectHint('x', { withinMs: 10 })), t, top).delayMs, 500);
  assert.equal(nextReconnect(0, restart(withReconnectHint('x', { withinMs: 3_600_000 })), t, top).delayMs, MAX_HINTED_WAIT_MS);
  // A 1012 before any welcome is an ordinary failure.
  assert.deepEqual(nextReconnect(3, { ...hinted, welcomed: false }, t, top), { delayMs: 4_000, attempt: 4 });
});

test('refused by the handshake cap (1013): a named turn is kept, spread over a second, and does not grow the backoff', () => {
  const refused = (reason: string): ConnectionEnd => ({ code: CLOSE_TRY_AGAIN_LATER, reason, welcomed: false, upMs: 0 });
  const turn = refused(withReconnectHint('too many agents connecting to this gateway; try again later', { afterMs: 3_200 }));
  assert.deepEqual(
    nextReconnect(2, turn, t, () => 0),
    { delayMs: 3_200, attempt: 2 },
  );
  assert.deepEqual(nextReconnect(2, turn, t, top), { delayMs: 4_200, attempt: 2 });
  // From a gateway that names no turn: the ordinary backoff.
  assert.deepEqual(nextReconnect(2, refused('try again later'), t, top), { delayMs: 2_000, attempt: 3 });
  // A hint on another code means nothing.
  assert.deepEqual(nextReconnect(2, { ...dropped, reason: turn.reason }, t, top), { delayMs: 2_000, attempt: 3 });
});

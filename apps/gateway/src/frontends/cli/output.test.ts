import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTable, printable, printableMessage } from './output.ts';

test('what the CLI prints holds no control, format or separator character, however the text was stored', () => {
  assert.equal(printable('Acme\u001b]0;owned\u0007 Ltd\u2028'), 'Acme\\x1b]0;owned\\x07 Ltd\\u2028');
  assert.equal(printable('Société 東京 🚀'), 'Société 東京 🚀');
  // An error keeps its own line breaks (a message, then its problems) and escapes the rest; stored
  // names inside messages are escaped where they are put in (operatorAdmin.ts), line feeds included.
  assert.equal(printableMessage('no such "x\u001b[2J"\n  - problem \u202eone'), 'no such "x\\x1b[2J"\n  - problem \\u202eone');
});

test('a table escapes each cell before measuring it, so the columns line up with what is printed', () => {
  const [header, row, next] = formatTable(
    ['NAME', 'MODE'],
    [
      ['a\u001bb', 'live'],
      ['plain', 'test'],
    ],
  );
  assert.deepEqual([header, row, next], ['NAME    MODE', 'a\\x1bb  live', 'plain   test']);
});

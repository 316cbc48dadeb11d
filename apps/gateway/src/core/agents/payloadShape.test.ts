import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCompactRecords, payloadProblem, RecordFields } from './payloadShape.ts';

const check = (text: string, shape: 'list' | 'get' | 'record' = 'list') => payloadProblem(Buffer.from(text), shape);

test('a list page is one JSON array of objects; a get, one JSON object', () => {
  for (const good of [
    '[]',
    ' [ ] ',
    '[{}]',
    '[{"id":"A","n":-1.5e+3,"ok":true,"x":null,"y":false,"z":[1,{"a":[]}]},{"id":"B\\n\\u00e9\\"\\\\\\/"}]',
    '[{"money":"0.00","z":0,"e":1E5}]\n',
    '[{"name":"Zürich €"}]',
  ])
    assert.equal(check(good), null, good);
  assert.equal(check('{"id":"A"}', 'get'), null);

  const bad: [string, string][] = [
    ['', 'expected a JSON array at byte 0'],
    ['{"id":"A"}', 'expected a JSON array at byte 0'],
    ['[1,2]', 'expected a JSON object at byte 1'],
    ['[{"a":1}', 'expected , or ] between records at byte 9'],
    ['[{"a":1}]x', 'data after the end at byte 9'],
    ['[{"a":1},]', 'expected a JSON object at byte 9'],
    ['[{"a":}]', 'expected a JSON value at byte 6'],
    ['[{"a":01}]', 'expected , or } in an object at byte 8'],
    ['[{"a":1.}]', 'a bad number at byte 8'],
    ['[{"a":"\u0001"}]', 'a control character in a string at byte 7'],
    ['[{"a":"\\x"}]', 'a bad escape at byte 8'],
    ['[{"a":"\\u12G4"}]', 'a bad \\u escape at byte 11'],
    ['[{"a":"open', 'unterminated string at byte 11'],
    ['[{"a":tru}]', 'expected a JSON value at byte 6'],
    ['[{a:1}]', 'expected a string at byte 2'],
    ['[{"a":1}][{"b":2}]', 'data after the end at byte 9'],
    [`[{"a":${'['.repeat(40)}${']'.repeat(40)}}]`, 'nesting too deep at byte 37'],
  ];
  for (const [text, problem] of bad) assert.equal(check(text), problem, text);
  assert.equal(check('[{"id":"A"}]', 'get'), 'expected a JSON object at byte 0');
  assert.equal(check('{"id":"A"}{}', 'get'), 'data after the end at byte 10');
});

test('whatever JSON.parse accepts as an array of objects, the scanner accepts, and the other way round', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = '[]{}",:0123456789.-+eEtrufalsn \\u\n';
  for (let i = 0; i < 20_000; i++) {
    const text = `[{"a":${Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const valid = Array.isArray(parsed) && parsed.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r));
    assert.equal(check(text) === null, valid, text);
  }
});

test("a written record is one object, or the array of a journal entry's lines", () => {
  assert.equal(check('{"id":"A"}', 'record'), null);
  assert.equal(check(' [{"line":1},{"line":2}]', 'record'), null);
  assert.equal(check('"A"', 'record'), 'expected a JSON object at byte 0');
  assert.equal(check('[1]', 'record'), 'expected a JSON object at byte 1');
});

test('with fields, every record has exactly them: none missing, none added, none twice; nested objects are values', () => {
  const fields = new RecordFields(['id', 'name', 'address']);
  const strict = (text: string, shape: 'list' | 'get' = 'list') => payloadProblem(Buffer.from(text), shape, fields);
  assert.equal(strict('[{"name":"n","id":"A","address":{"x":1}},{"id":"B","name":null,"address":null}]'), null);
  assert.equal(strict('{"id":"A","name":"n","address":null}', 'get'), null);
  assert.equal(strict('[]'), null);
  assert.equal(strict('[{"id":"A","name":"n","address":null,"extra":1}]'), 'a field the object does not have ("extra") at byte 37');
  assert.equal(
    strict('[{"id":"A","name":"n","address":null,"__proto__":{}}]'),
    'a field the object does not have ("__proto__") at byte 37',
  );
  assert.equal(strict('[{"id":"A","name":"n"}]'), 'a record without the field address at byte 22');
  assert.equal(strict('{"id":"A","id":"B","name":"n","address":null}', 'get'), 'the field id twice at byte 10');
  assert.equal(strict('[{"\\u0069d":"A","name":"n","address":null}]'), 'a field the object does not have ("\\\\u0069d") at byte 2');
});

test('a page as agents write it is taken on the fast path; whatever else it meets, the scanner judges alike', () => {
  const names = ['id', 'name', 'balance', 'onHold', 'address', 'modifiedAt'];
  const fields = new RecordFields(names);
  const rows = [
    { id: 'AARONFIT0001', name: 'Aaron "Fitness" \\ Zürich €\n', balance: '-12.50000', onHold: false, address: null, modifiedAt: 1.5e-7 },
    { id: 'B', name: '', balance: '0', onHold: true, address: null, modifiedAt: -0 },
  ];
  const page = JSON.stringify(rows);
  assert.equal(isCompactRecords(Buffer.from(page), true, fields), true);
  assert.equal(isCompactRecords(Buffer.from(JSON.stringify(rows[0])), false, fields), true);
  assert.equal(isCompactRecords(Buffer.from('[]'), true, fields), true);
  // Valid, but not as agents write it: the scanner reads these (and accepts them).
  for (const other of [
    JSON.stringify(rows, null, 1),
    JSON.stringify([{ name: 'C', id: 'C', balance: '1', onHold: true, address: null, modifiedAt: 0 }]),
  ]) {
    assert.equal(isCompactRecords(Buffer.from(other), true, fields), false);
    assert.equal(payloadProblem(Buffer.from(other), 'list', fields), null);
  }

  // Every byte of the page changed to each byte that matters, and cut short: the verdict is JSON.parse's with exactly the fields.
  const exactly = (text: string): boolean => {
    try {
      const parsed: unknown = JSON.parse(text);
      return (
        Array.isArray(parsed) &&
        parsed.every(
          (r) =>
            r !== null &&
            typeof r === 'object' &&
            !Array.isArray(r) &&
            Object.keys(r).length === names.length &&
            names.every((n) => Object.hasOwn(r, n)),
        )
      );
    } catch {
      return false;
    }
  };
  const bytesThatMatter = '[]{}",:\\ 0-.eEtnf\u0001a';
  for (let i = 0; i <= page.length; i++) {
    for (const replacement of [...bytesThatMatter, '']) {
      const text = page.slice(0, i) + replacement + page.slice(i + 1);
      assert.equal(payloadProblem(Buffer.from(text), 'list', fields) === null, exactly(text), text);
    }
    const cut = page.slice(0, i);
    assert.equal(payloadProblem(Buffer.from(cut), 'list', fields) === null, exactly(cut), cut);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHidden, idProblem, lengthProblem, multilineTextProblem, NAME_MAX_LENGTH, nameProblem, textProblem } from './text.ts';

/** One of each class the rule refuses, with the words its message names it by. */
const REFUSED: [string, string][] = [
  ['\u0000', 'a control character (U+0000)'],
  ['\u0007', 'a control character (U+0007)'],
  ['\u001b', 'a control character (U+001B)'],
  ['\t', 'a control character (U+0009)'],
  ['\n', 'a control character (U+000A)'],
  ['\r', 'a control character (U+000D)'],
  ['\u007f', 'a control character (U+007F)'],
  ['\u0085', 'a control character (U+0085)'],
  ['\u009b', 'a control character (U+009B)'],
  ['\u202a', 'a bidirectional control character (U+202A)'],
  ['\u202e', 'a bidirectional control character (U+202E)'],
  ['\u2066', 'a bidirectional control character (U+2066)'],
  ['\u2069', 'a bidirectional control character (U+2069)'],
  ['\u200e', 'a bidirectional control character (U+200E)'],
  ['\u200f', 'a bidirectional control character (U+200F)'],
  ['\u200b', 'a zero-width character (U+200B)'],
  ['\u200d', 'a zero-width character (U+200D)'],
  ['\u2060', 'a zero-width character (U+2060)'],
  ['\ufeff', 'a zero-width character (U+FEFF)'],
  ['\u00ad', 'an invisible formatting character (U+00AD)'],
  ['\u2028', 'a line or paragraph separator (U+2028)'],
  ['\u2029', 'a line or paragraph separator (U+2029)'],
  ['\ud800', 'an unpaired surrogate (U+D800)'],
];

test('every class of hidden character is refused, named with its code point and its position', () => {
  for (const [char, words] of REFUSED) {
    assert.equal(textProblem(`Key${char}x`), `contains ${words} at position 4`, JSON.stringify(char));
    assert.equal(nameProblem(`Key${char}x`), `contains ${words} at position 4`, JSON.stringify(char));
    assert.equal(idProblem(`K${char}`), `contains ${words} at position 2`, JSON.stringify(char));
  }
});

test('positions count characters as people see them: an emoji or a CJK character before the refused one counts once', () => {
  assert.equal(textProblem('😀東\u001b[2J'), 'contains a control character (U+001B) at position 3');
  assert.equal(
    textProblem('a\u202eb\u0000'),
    'contains a bidirectional control character (U+202E) at position 2',
    'the first one is named',
  );
});

test('free text of several lines may hold tab, CR and LF, and nothing else the rule refuses', () => {
  assert.equal(multilineTextProblem('Line one\r\nLine two\n\tindented'), null);
  assert.equal(multilineTextProblem('ok\nthen \u001b[2J'), 'contains a control character (U+001B) at position 9');
  for (const [char, words] of REFUSED.filter(([c]) => !['\t', '\n', '\r'].includes(c))) {
    assert.equal(multilineTextProblem(`a\n${char}`), `contains ${words} at position 3`, JSON.stringify(char));
  }
});

test('accents, CJK, right-to-left scripts, emoji (joined ones too) and symbols are text like any other', () => {
  for (const text of [
    'Société Générale',
    'Ärzte & Söhne',
    '東京支店',
    '서울',
    'مكتب دبي',
    'שלום',
    '🚀 Production',
    '👩‍💻 team',
    '🇫🇷',
    'ｆｕｌｌ',
    '𝓤',
    'a\u00a0b',
  ]) {
    assert.equal(textProblem(text), null, text);
    assert.equal(nameProblem(text), null, text);
  }
});

test('a zero-width joiner is refused except between two emoji, where it is how one emoji is written', () => {
  for (const emoji of ['👩\u200d💻', '👩🏽\u200d💻', '🏳️\u200d🌈', '❤️\u200d🔥']) assert.equal(textProblem(`${emoji} team`), null, emoji);
  assert.equal(textProblem('ab\u200dc'), 'contains a zero-width character (U+200D) at position 3');
  assert.equal(textProblem('👩\u200d'), 'contains a zero-width character (U+200D) at position 2');
  assert.equal(textProblem('\u200d💻'), 'contains a zero-width character (U+200D) at position 1');
});

test('ids take no space but the ASCII space', () => {
  assert.equal(idProblem('NET 30'), null);
  assert.equal(idProblem('A\u00a0B'), 'must not contain spaces other than the ASCII space: U+00A0 at position 2');
  assert.equal(idProblem('東\u3000B'), 'must not contain spaces other than the ASCII space: U+3000 at position 2');
});

test('names are at most 100 characters by default, counted as characters, not UTF-16 units', () => {
  assert.equal(nameProblem('x'.repeat(NAME_MAX_LENGTH)), null);
  assert.equal(nameProblem('x'.repeat(5000)), 'must be at most 100 characters (it has 5,000)');
  assert.equal(nameProblem('😀'.repeat(100)), null, '100 emoji are 200 UTF-16 units and 100 characters');
  assert.equal(nameProblem('😀'.repeat(101)), 'must be at most 100 characters (it has 101)');
  assert.equal(nameProblem('x'.repeat(30), 20), 'must be at most 20 characters (it has 30)');
  assert.equal(lengthProblem('abc', 3), null);
  assert.equal(
    nameProblem(`${'x'.repeat(200)}\u001b`),
    'contains a control character (U+001B) at position 201',
    'the character is named first',
  );
});

test('escapeHidden writes every refused character out, and leaves visible text alone', () => {
  assert.equal(escapeHidden('Evil\u001b[2J\r\nkey_forged  Forged'), 'Evil\\x1b[2J\\x0d\\x0akey_forged  Forged');
  assert.equal(escapeHidden('a\u202eb\u200bc\u0085d\u{e0001}'), 'a\\u202eb\\u200bc\\x85d\\u{e0001}');
  assert.equal(escapeHidden('Société 東京 🚀'), 'Société 東京 🚀');
  for (const [char] of REFUSED) assert.equal(textProblem(escapeHidden(`x${char}`)), null, JSON.stringify(char));
});

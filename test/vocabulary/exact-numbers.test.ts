/**
 * Numbers kept as sent: which JSON number tokens a double keeps, the parse that remembers the
 * others beside the object holding them, and the leftovers no decimal field took.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  keepsExactly,
  leftoverNumbers,
  numberText,
  parseKeepingNumbers,
  takeExactText,
  withoutExponent,
} from '../../src/vocabulary/exact-numbers.ts';

const parse = (text: string) => parseKeepingNumbers(text, JSON.parse(text));

describe('exact numbers', () => {
  it('knows which number tokens a double keeps exactly', () => {
    for (const token of [
      '0',
      '-0',
      '30.0',
      '1e-7',
      '0.30000000000000004',
      '9007199254740991',
      '123456789012345',
    ])
      assert.ok(keepsExactly(token), token);
    for (const token of [
      '9007199254740993',
      '9007199254740994',
      '1.5e21',
      '1e400',
      '-1e400',
      '1e-400',
      '1234567890.1234567891',
      '0.1000000000000000055511151231257827',
    ])
      assert.ok(!keepsExactly(token), token);
  });

  it('writes numbers out without an exponent', () => {
    assert.equal(numberText(1e-7), '0.0000001');
    assert.equal(numberText(1.5e21), '1500000000000000000000');
    assert.equal(numberText(-0), '0');
    assert.equal(withoutExponent('0.05e1'), '0.5');
    assert.equal(withoutExponent('10.5e-1'), '1.05');
    assert.equal(withoutExponent('-2E-3'), '-0.002');
    assert.equal(withoutExponent('-0e5'), '0');
    assert.equal(withoutExponent('1.50e1'), '15.0');
    // Too large to write out: left as sent, for a decimal field to refuse.
    assert.equal(withoutExponent('1e999999999'), '1e999999999');
  });

  it('remembers the sent text of each number a double cannot keep, beside the object holding it', () => {
    const text =
      '{"a":{"b":[1,12345678901.12345678901,{"c":9007199254740993}]},"d":1.5,"e":"9007199254740993"}';
    const parsed = parse(text);
    assert.ok('value' in parsed);
    const body = parsed.value as { a: { b: [number, number, { c: number }] }; d: number; e: string };
    assert.equal(body.a.b[1], 12345678901.123457);
    assert.equal(body.d, 1.5);
    assert.equal(body.e, '9007199254740993', 'strings are never touched');
    assert.deepEqual(
      leftoverNumbers(body).map((l) => [l.path.join('.'), l.text]),
      [
        ['a.b.1', '12345678901.12345678901'],
        ['a.b.2.c', '9007199254740993'],
      ],
    );
    assert.equal(takeExactText(body.a.b, 1), '12345678901.12345678901');
    assert.equal(takeExactText(body, 'd'), undefined, 'JSON.parse kept 1.5');
    assert.deepEqual(
      leftoverNumbers(body).map((l) => l.path.join('.')),
      ['a.b.2.c'],
    );
    assert.deepEqual(
      leftoverNumbers(body.a.b[2]).map((l) => l.path.join('.')),
      ['c'],
    );
  });

  it('leaves bodies without such numbers as JSON.parse made them', () => {
    const text = '{"long":"12345678901234567890","n":[1,2.5,1e-7,1234567.12345678]}';
    const json = JSON.parse(text);
    const parsed = parseKeepingNumbers(text, json);
    assert.ok('value' in parsed);
    assert.equal(parsed.value, json);
    assert.deepEqual(leftoverNumbers(parsed.value), []);
  });

  it('returns a whole body that is such a number on its own, and expands exponents it keeps', () => {
    assert.deepEqual(parse('1e400'), { rootNumber: '1e400' });
    const parsed = parse('[1.2345678901234567891e5]');
    assert.ok('value' in parsed);
    assert.deepEqual(
      leftoverNumbers(parsed.value).map((l) => l.text),
      ['123456.78901234567891'],
    );
  });

  it('does not overflow the stack on a body nested 10,000 deep (refused later for its depth)', () => {
    const text = `{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)},"n":9223372036854775808}`;
    const parsed = parse(text);
    assert.ok('value' in parsed);
    assert.deepEqual(
      leftoverNumbers(parsed.value).map((l) => l.path.join('.')),
      ['n'],
    );
  });

  it('cannot be fooled by a string that looks like its marker', () => {
    const text = '{"s":"\\u0000ferry-number-x:0","n":9007199254740993}';
    const parsed = parse(text);
    assert.ok('value' in parsed);
    const body = parsed.value as { s: string; n: number };
    assert.equal(body.s, '\u0000ferry-number-x:0');
    assert.deepEqual(
      leftoverNumbers(body).map((l) => l.path.join('.')),
      ['n'],
    );
  });
});

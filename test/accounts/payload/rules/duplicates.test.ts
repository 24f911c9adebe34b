import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compositeKey, findRepeatedIndexes } from '../../../../src/accounts/payload/rules/duplicates.ts';

test('returns the indexes of the second and later occurrences of a key', () => {
  const mpans = ['1200060176720', '9353824109', '1200060176720', '1200060176720'];
  assert.deepEqual(
    findRepeatedIndexes(mpans, (mpan) => mpan),
    [2, 3],
  );
});

test('items without a key are never duplicates', () => {
  assert.deepEqual(
    findRepeatedIndexes([{ id: undefined }, { id: undefined }], (item) => item.id),
    [],
  );
});

test('keys such as __proto__ and constructor are ordinary keys', () => {
  assert.deepEqual(
    findRepeatedIndexes(['__proto__', 'constructor', '__proto__'], (key) => key),
    [2],
  );
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('composite keys cannot collide through separators inside the parts', () => {
  assert.notEqual(compositeKey('a|b', 'c'), compositeKey('a', 'b|c'));
  assert.equal(compositeKey('2019-01-01', '00001'), compositeKey('2019-01-01', '00001'));
});

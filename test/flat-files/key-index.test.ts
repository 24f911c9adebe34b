import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyIndex } from '../../src/flat-files/key-index.ts';

describe('KeyIndex (a parent file’s keys → bucket, in typed arrays)', () => {
  it('finds every key it was given after growing many times, and no key it was not', () => {
    const index = new KeyIndex(4);
    for (let i = 0; i < 50_000; i++) assert.equal(index.add(`MPXN-${i}`, i % 97, i + 2), 0);
    assert.equal(index.size, 50_000);
    for (let i = 0; i < 50_000; i++) assert.equal(index.bucketOf(`MPXN-${i}`), i % 97);
    for (let i = 50_000; i < 51_000; i++) assert.equal(index.bucketOf(`MPXN-${i}`), -1);
  });

  it('answers the first line of a key added twice, and keeps its first bucket', () => {
    const index = new KeyIndex();
    assert.equal(index.add('P-12', 3, 7), 0);
    assert.equal(index.add('P-12', 5, 9), 7);
    assert.equal(index.bucketOf('P-12'), 3);
  });
});

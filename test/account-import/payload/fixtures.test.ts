import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const REFERENCE = new URL('../../../../shared/reference/examples/account.json', import.meta.url);
const COPY = new URL('./fixtures/example-account.json', import.meta.url);

describe('example account fixture', () => {
  it('is the reference example, byte for byte, where the reference is at hand', {
    skip: !existsSync(REFERENCE) && 'no ../shared beside the checkout',
  }, () => {
    assert.equal(readFileSync(COPY, 'utf8'), readFileSync(REFERENCE, 'utf8'));
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const REFERENCE = new URL('../../../../shared/reference/examples/account.json', import.meta.url);
const COPY = new URL('./fixtures/example-account.json', import.meta.url);

// The GB OpenAPI document's request example of the V2 validate and create endpoints is this same account
// (compared with a YAML 1.1 parser; the yaml package reads its unquoted 07123456789 as a number).
describe('example account fixture', () => {
  it('is the reference example, byte for byte, where the reference is at hand', {
    skip: !existsSync(REFERENCE) && 'no ../shared beside the checkout',
  }, () => {
    assert.equal(readFileSync(COPY, 'utf8'), readFileSync(REFERENCE, 'utf8'));
  });
});

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

const COPY = new URL('../../fixtures/reference-examples/account.json', import.meta.url);
/** The published example's digest, as copied (test/fixtures/reference-examples/SHA256SUMS). */
const SUMS = new URL('../../fixtures/reference-examples/SHA256SUMS', import.meta.url);

// The GB OpenAPI document's request example of the V2 validate and create endpoints is this same account
// (compared with a YAML 1.1 parser; the yaml package reads its unquoted 07123456789 as a number).
describe('example account fixture', () => {
  it('is the reference example, byte for byte', () => {
    const published = readFileSync(SUMS, 'utf8').match(/^([0-9a-f]{64}) +account\.json$/m)?.[1];
    assert.equal(createHash('sha256').update(readFileSync(COPY)).digest('hex'), published);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseCompanyNumber } from '../../../../src/accounts/payload/business/company-number.ts';

test('standardises company numbers: upper case, no spaces, zero-padded', () => {
  const cases: Array<[string, string]> = [
    ['01234567', '01234567'],
    ['1234567', '01234567'],
    ['12345', '00012345'],
    ['sc 123456', 'SC123456'],
    ['NI1234', 'NI001234'],
    ['oc301234', 'OC301234'],
  ];
  for (const [input, standard] of cases) assert.equal(normaliseCompanyNumber(input), standard, input);
});

test('rejects values that cannot be company numbers', () => {
  for (const value of ['', 'ABC', '123456789', 'S1234567', 'SC1234567', '12-34'])
    assert.equal(normaliseCompanyNumber(value), null, value);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isRegistryCode,
  isTariffOrProductCode,
} from '../../../../src/accounts/payload/rules/registry-code.ts';

test('accepts tariff, product, slug and namespace shaped codes', () => {
  const codes = [
    'E-1R-VAR-22-11-01-A',
    'ELEC-1234-J',
    'VAR-22-11-01',
    'super_account',
    'tentacle-energy.allpay-client-reference-number',
    'ns:value',
  ];
  for (const code of codes) assert.equal(isRegistryCode(code), true, code);
  assert.equal(isTariffOrProductCode('GAS-1234-J'), true);
});

test('rejects spaces, leading, trailing or doubled separators and over-long codes', () => {
  for (const code of ['', 'E 1R', '-VAR', 'VAR-', 'VAR--1', 'a..b', 'café', 'A'.repeat(256)])
    assert.equal(isRegistryCode(code), false, code);
});

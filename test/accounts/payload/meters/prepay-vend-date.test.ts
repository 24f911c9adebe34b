import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isAcceptedTransferVendReadDate } from '../../../../src/accounts/payload/meters/prepay-vend-date.ts';

test('accepts the last billed to date itself', () => {
  assert.equal(isAcceptedTransferVendReadDate('2019-08-01', '2019-08-01'), true);
});

test('accepts the day before the last billed to date, across a month end', () => {
  assert.equal(isAcceptedTransferVendReadDate('2019-07-31', '2019-08-01'), true);
});

test('rejects two days before, and any day after', () => {
  assert.equal(isAcceptedTransferVendReadDate('2019-07-30', '2019-08-01'), false);
  assert.equal(isAcceptedTransferVendReadDate('2019-08-02', '2019-08-01'), false);
});

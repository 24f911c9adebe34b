import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  balanceEffect,
  countsTowardsBalance,
  netBalanceEffect,
  reconcileBalance,
} from '../../../../src/accounts/payload/ledgers/ledger-balance.ts';
import { toScaledInteger } from '../../../../src/vocabulary/decimal.ts';

const pounds = (value: string) => toScaledInteger(value) ?? 0n;

test('payments and credits add to the balance; charges, supply charges and repayments subtract', () => {
  assert.equal(balanceEffect({ type: 'PAYMENT', amount: '20.00' }), pounds('20'));
  assert.equal(balanceEffect({ type: 'CREDIT', amount: '5' }), pounds('5'));
  assert.equal(balanceEffect({ type: 'CHARGE', amount: '7.50' }), pounds('-7.5'));
  assert.equal(balanceEffect({ type: 'SUPPLY_CHARGE', amount: '1' }), pounds('-1'));
  assert.equal(balanceEffect({ type: 'REPAYMENT', amount: '10' }), pounds('-10'));
});

test('the reference example ledger reconciles: 20.00 - 10.00 repayment + 20.00 payment = 30.00', () => {
  const current = [
    { type: 'REPAYMENT' as const, amount: '10.00' },
    { type: 'PAYMENT' as const, amount: '20.00' },
  ];
  assert.deepEqual(reconcileBalance(pounds('20.00'), current, pounds('30.00')), {
    expected: pounds('30'),
    reconciles: true,
  });
});

test('a closing balance one penny out does not reconcile, and the expected balance is exact', () => {
  const result = reconcileBalance(
    0n,
    [
      { type: 'PAYMENT', amount: '0.1' },
      { type: 'PAYMENT', amount: '0.2' },
    ],
    pounds('0.31'),
  );
  assert.deepEqual(result, { expected: pounds('0.3'), reconciles: false });
});

test('prepay vends are left out of the balance', () => {
  const vend = { type: 'PAYMENT' as const, amount: '15', to_prepay_meter_serial_number: '54BV' };
  assert.equal(countsTowardsBalance(vend), false);
  assert.equal(netBalanceEffect([vend, { type: 'PAYMENT', amount: '1' }]), pounds('1'));
});

test('an unusable amount makes the sum unknown rather than wrong', () => {
  assert.equal(netBalanceEffect([{ type: 'PAYMENT', amount: 'ten' }]), null);
  assert.equal(reconcileBalance(0n, [{ type: 'PAYMENT', amount: 'ten' }], 0n), null);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  coversDate,
  findOverlaps,
  findSequenceBreaks,
  isOrderedPeriod,
  periodsOverlap,
} from '../../../../src/accounts/payload/rules/periods.ts';

test('a period is ordered when it does not end before it starts; open-ended periods always are', () => {
  assert.equal(isOrderedPeriod('2019-01-01', '2019-01-01'), true);
  assert.equal(isOrderedPeriod('2019-01-02', '2019-01-01'), false);
  assert.equal(isOrderedPeriod('2019-01-01', '2019-01-01', { strict: true }), false);
  assert.equal(isOrderedPeriod('2019-01-01', null), true);
});

test('exclusive ends: the next period starts on the previous end date', () => {
  const periods = [
    { from: '2019-03-01', to: null },
    { from: '2019-01-01', to: '2019-02-01' },
    { from: '2019-02-01', to: '2019-03-01' },
  ];
  assert.deepEqual(findSequenceBreaks(periods, 'exclusive'), []);
});

test('inclusive ends: the next period starts the day after the previous end date', () => {
  const aq = [
    { from: '2019-01-01', to: null },
    { from: '2018-01-01', to: '2018-12-31' },
    { from: '2017-01-01', to: '2017-12-31' },
  ];
  assert.deepEqual(findSequenceBreaks(aq, 'inclusive'), []);
});

test('reports gaps and overlaps at the later period, in input indexes', () => {
  const periods = [
    { from: '2019-01-01', to: '2019-02-01' },
    { from: '2019-03-01', to: '2019-04-01' },
    { from: '2019-03-15', to: null },
  ];
  assert.deepEqual(findSequenceBreaks(periods, 'exclusive'), [
    { index: 1, kind: 'gap' },
    { index: 2, kind: 'overlap' },
  ]);
});

test('an overlap with an earlier, longer period is found even past a shorter one', () => {
  const periods = [
    { from: '2019-01-01', to: '2019-12-31' },
    { from: '2019-02-01', to: '2019-02-10' },
    { from: '2019-06-01', to: '2019-06-10' },
  ];
  assert.deepEqual(findOverlaps(periods, 'inclusive'), [1, 2]);
});

test('anything after an open-ended period overlaps it', () => {
  assert.deepEqual(
    findOverlaps([{ from: '2019-01-01' }, { from: '2020-01-01', to: '2020-02-01' }], 'exclusive'),
    [1],
  );
});

test('coverage and overlap respect the end convention', () => {
  assert.equal(coversDate({ from: '2019-01-01', to: '2019-02-01' }, '2019-02-01', 'exclusive'), false);
  assert.equal(coversDate({ from: '2019-01-01', to: '2019-02-01' }, '2019-02-01', 'inclusive'), true);
  assert.equal(coversDate({ from: '2019-08-01', to: null }, '2019-08-01', 'exclusive'), true);
  assert.equal(
    periodsOverlap({ from: '2019-01-01', to: '2019-02-01' }, { from: '2019-02-01' }, 'exclusive'),
    false,
  );
  assert.equal(
    periodsOverlap({ from: '2019-01-01', to: '2019-02-01' }, { from: '2019-02-01' }, 'inclusive'),
    true,
  );
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseAccountRequest } from '../../src/accounts/account-checks.ts';
import { exampleAccount, exampleWith, TODAY } from './payload/support/payload-fixtures.ts';

const NOW = new Date('2025-06-01T12:00:00Z');
const ctx = { today: TODAY, nowMs: NOW.getTime() };
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const errorsOf = (body: unknown) => {
  const result = parseAccountRequest(body, ctx);
  return result.ok ? [] : result.errors.map((e) => `${e.attr}: ${e.code}`);
};

describe('the account bare or wrapped', () => {
  test('accepts the example account bare, with default task parameters', () => {
    const result = parseAccountRequest(exampleAccount(), ctx);
    assert.ok(result.ok);
    assert.equal(result.payload.external_account_number, 'EXTERNAL-1234');
    assert.deepEqual(result.taskParams, {
      isDryRun: false,
      scheduleWindowStart: null,
      scheduleWindowEnd: null,
      wave: null,
      mappingProfile: null,
    });
  });

  test('accepts the example account wrapped as {payload}', () => {
    const result = parseAccountRequest({ payload: exampleAccount() }, ctx);
    assert.ok(result.ok);
    assert.equal(result.payload.import_supplier, 'TENTACLE_ENERGY');
  });

  test('accepts {payload, task_params} and returns the task parameters as UTC instants', () => {
    const result = parseAccountRequest(
      {
        payload: exampleAccount(),
        task_params: {
          is_dry_run: true,
          schedule_window_start: '2025-06-01T14:00:00+01:00',
          schedule_window_end: at(2 * DAY),
        },
      },
      ctx,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.taskParams, {
      isDryRun: true,
      scheduleWindowStart: '2025-06-01T13:00:00.000Z',
      scheduleWindowEnd: at(2 * DAY),
      wave: null,
      mappingProfile: null,
    });
  });

  test('reports errors inside a wrapped payload relative to the account, without a payload. prefix', () => {
    assert.deepEqual(errorsOf({ payload: exampleWith({ 'customers.0.mobile': '07' }) }), [
      'customers.0.mobile: invalid_phone_number',
    ]);
  });

  test('rejects anything but payload and task_params beside a payload', () => {
    assert.deepEqual(errorsOf({ payload: exampleAccount(), import_supplier: 'X', meta: {} }), [
      'import_supplier: unknown_field',
      'meta: unknown_field',
    ]);
  });

  test('rejects task_params beside a bare account', () => {
    assert.deepEqual(errorsOf({ ...exampleAccount(), task_params: {} }), ['task_params: unknown_field']);
  });

  test('rejects a payload that is not an object at the account root', () => {
    assert.deepEqual(errorsOf({ payload: 'account' }), [': invalid']);
    assert.deepEqual(errorsOf({ payload: null }), [': null']);
  });

  test('rejects a body that is not an object', () => {
    for (const body of [null, [exampleAccount()], 'x']) assert.deepEqual(errorsOf(body), [': invalid']);
  });
});

describe('task parameters', () => {
  const wrapped = (taskParams: unknown) => ({ payload: exampleAccount(), task_params: taskParams });

  test('reports their structural errors under task_params.', () => {
    assert.deepEqual(errorsOf(wrapped({ is_dry_run: 'yes', schedule_window_start: 'now', extra: 1 })), [
      'task_params.extra: unknown_field',
      'task_params.is_dry_run: invalid',
      'task_params.schedule_window_start: invalid_datetime',
    ]);
  });

  test('rejects a task_params that is not an object', () => {
    assert.deepEqual(errorsOf(wrapped([])), ['task_params: invalid']);
  });

  test('accepts null windows, meaning the defaults', () => {
    const result = parseAccountRequest(
      wrapped({ schedule_window_start: null, schedule_window_end: null }),
      ctx,
    );
    assert.ok(result.ok);
    assert.deepEqual(result.taskParams, {
      isDryRun: false,
      scheduleWindowStart: null,
      scheduleWindowEnd: null,
      wave: null,
      mappingProfile: null,
    });
  });

  test('rejects a window starting in the past', () => {
    assert.deepEqual(errorsOf(wrapped({ schedule_window_start: at(-HOUR) })), [
      'task_params.schedule_window_start: schedule_window_start_in_past',
    ]);
  });

  test('accepts a start stamped a few seconds ago by the client', () => {
    assert.deepEqual(errorsOf(wrapped({ schedule_window_start: at(-5_000) })), []);
  });

  test('rejects a window ending more than four days from now', () => {
    assert.deepEqual(errorsOf(wrapped({ schedule_window_end: at(4 * DAY + 1_000) })), [
      'task_params.schedule_window_end: schedule_window_end_too_far_in_future',
    ]);
    assert.deepEqual(errorsOf(wrapped({ schedule_window_end: at(4 * DAY) })), []);
  });

  test('rejects a window that does not start before it ends', () => {
    assert.deepEqual(
      errorsOf(wrapped({ schedule_window_start: at(2 * DAY), schedule_window_end: at(DAY) })),
      ['task_params.schedule_window_start: schedule_window_start__after_end'],
    );
  });

  test('rejects an end before the defaulted start (now)', () => {
    assert.deepEqual(errorsOf(wrapped({ schedule_window_end: at(-HOUR) })), [
      'task_params.schedule_window_end: schedule_window_start__after_end',
    ]);
  });

  test('reports account and task parameter errors together', () => {
    const body = { payload: exampleWith({ import_supplier: '' }), task_params: { is_dry_run: 1 } };
    assert.deepEqual(errorsOf(body), ['import_supplier: blank', 'task_params.is_dry_run: invalid']);
  });
});

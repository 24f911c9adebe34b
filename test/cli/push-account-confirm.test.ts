/**
 * What the service's status of an account means for a re-run that found it final in the report
 * (decision 0080): the same, skipped; gone or rolled back, sent again; waiting again, followed;
 * final otherwise, reported anew.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { confirmationOf, type Reported } from '../../src/cli/push/push-account-confirm.ts';
import type { Entry } from '../../src/cli/push/push-account-lines.ts';

const entry = { key: 'E1', ext: 'E1', supplier: 'S' } as Entry;
const reported = (status: string, accountNumber: string | null = null): Reported => ({
  entry,
  status,
  sameAccount: (n) => n === accountNumber,
});
const record = (status: string, extra: Record<string, unknown> = {}) => ({
  status,
  service_identifier: null,
  latest_error: null,
  latest_event: { event: 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED' },
  ...extra,
});

describe('confirming what a report calls final', () => {
  it('skips an account the service still holds as reported', () => {
    const processed = record('PROCESSED', { service_identifier: 'A-1' });
    assert.deepEqual(confirmationOf(reported('PROCESSED', 'A-1'), 200, processed), { kind: 'final' });
    assert.deepEqual(confirmationOf(reported('ERRORED'), 200, record('ERRORED')), { kind: 'final' });
  });

  it('stops the run on any other answer: neither sent again nor believed', () => {
    for (const status of [400, 403, 405]) {
      assert.throws(() => confirmationOf(reported('PROCESSED', 'A-1'), status, {}), /could not confirm E1/);
    }
  });

  it('sends again an account the service does not have, or removed in a rollback', () => {
    assert.equal(confirmationOf(reported('PROCESSED', 'A-1'), 404, {}).kind, 'send');
    const rolledBack = record('CANCELLED', {
      latest_event: { event: 'EVENT_ACCOUNT_IMPORT_PROCESS_ROLLED_BACK' },
    });
    assert.deepEqual(confirmationOf(reported('PROCESSED', 'A-1'), 200, rolledBack), {
      kind: 'send',
      why: 'rolled back',
    });
    // Reported cancelled, then rolled back with its wave (after a retry created it): sent again too.
    assert.equal(confirmationOf(reported('CANCELLED'), 200, rolledBack).kind, 'send');
  });

  it('follows an account retried since, and reports anew one that ended otherwise', () => {
    assert.deepEqual(confirmationOf(reported('ERRORED'), 200, record('PENDING')), { kind: 'poll' });
    assert.deepEqual(
      confirmationOf(reported('ERRORED'), 200, record('PROCESSED', { service_identifier: 'A-2' })),
      { kind: 'changed', status: 'PROCESSED', accountNumber: 'A-2', errors: [] },
    );
    // Cancelled by the operator, never created: left as the operator left it, and reported so.
    const cancelled = record('CANCELLED', {
      latest_event: { event: 'EVENT_ACCOUNT_IMPORT_PROCESS_CANCELLED' },
    });
    assert.equal(confirmationOf(reported('ERRORED'), 200, cancelled).kind, 'changed');
    // Created again under another number (rolled back and pushed by someone else): the new number.
    assert.deepEqual(
      confirmationOf(reported('PROCESSED', 'A-1'), 200, record('PROCESSED', { service_identifier: 'A-9' })),
      { kind: 'changed', status: 'PROCESSED', accountNumber: 'A-9', errors: [] },
    );
  });
});

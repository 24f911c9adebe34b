import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  allows,
  IMPORT_PROCESS_STATUSES,
  IMPORT_PROCESS_TRANSITIONS,
  IMPORT_PROCESS_TRIGGERS,
  type ImportProcessStatus,
  type ImportProcessTrigger,
  nextState,
} from '../../src/vocabulary/import-process-states.ts';

/** The event names of docs/product.md (Events), spelled out here rather than read from the table. */
const ev = (what: string) => `EVENT_ACCOUNT_IMPORT_PROCESS_${what}`;

type Cells = Partial<Record<ImportProcessTrigger, [ImportProcessStatus, string]>>;

// What a process waiting for an account may go through: re-scheduled, re-staged, created or
// failed by the V1 process endpoint, cancelled (docs/product.md: Operator interface, Re-scheduling).
const open = (): Cells => ({
  schedule: ['PENDING', ev('CREATED')],
  stage: ['STAGED', ev('STAGED')],
  create_in_request: ['PROCESSED', ev('PROCESSED')],
  fail_in_request: ['ERRORED', ev('ERRORED')],
  cancel: ['CANCELLED', ev('CANCELLED')],
  rollback: ['CANCELLED', ev('ROLLED_BACK')],
});

/** Every allowed (state, trigger) pair, written out; every other pair is refused. */
const EXPECTED: Record<ImportProcessStatus, Cells> = {
  STAGED: open(),
  PENDING: {
    ...open(),
    claim: ['IN_PROGRESS', ev('STARTED')],
    expire_window: ['ERRORED', ev('ERRORED')],
    expire_dry_run_window: ['DRY_RUN_ERRORED', ev('DRY_RUN_ERRORED')],
  },
  IN_PROGRESS: {
    release_lease: ['PENDING', ev('CREATED')],
    create: ['PROCESSED', ev('PROCESSED')],
    fail: ['ERRORED', ev('ERRORED')],
    dry_run_succeed: ['DRY_RUN_SUCCEEDED', ev('DRY_RUN_SUCCEEDED')],
    dry_run_fail: ['DRY_RUN_ERRORED', ev('DRY_RUN_ERRORED')],
    rollback: ['CANCELLED', ev('ROLLED_BACK')],
  },
  // Only the rollback of its wave moves a PROCESSED process (it deletes the account too).
  PROCESSED: { rollback: ['CANCELLED', ev('ROLLED_BACK')] },
  CANCELLED: { schedule: ['PENDING', ev('CREATED')], stage: ['STAGED', ev('STAGED')] },
  DRY_RUN_SUCCEEDED: open(),
  ERRORED: { ...open(), retry: ['PENDING', ev('RETRIED')] },
  DRY_RUN_ERRORED: open(),
};

describe('the import-process state table', () => {
  it('has the eight states and the fifteen triggers this test knows', () => {
    assert.deepEqual([...IMPORT_PROCESS_STATUSES].sort(), [
      'CANCELLED',
      'DRY_RUN_ERRORED',
      'DRY_RUN_SUCCEEDED',
      'ERRORED',
      'IN_PROGRESS',
      'PENDING',
      'PROCESSED',
      'STAGED',
    ]);
    assert.deepEqual([...IMPORT_PROCESS_TRIGGERS].sort(), [
      'cancel',
      'claim',
      'create',
      'create_in_request',
      'dry_run_fail',
      'dry_run_succeed',
      'expire_dry_run_window',
      'expire_window',
      'fail',
      'fail_in_request',
      'release_lease',
      'retry',
      'rollback',
      'schedule',
      'stage',
    ]);
  });

  for (const state of IMPORT_PROCESS_STATUSES) {
    describe(`from ${state}`, () => {
      for (const trigger of IMPORT_PROCESS_TRIGGERS) {
        const cell = EXPECTED[state][trigger];
        if (cell) {
          it(`${trigger} moves the process to ${cell[0]} and writes ${cell[1]}`, () => {
            assert.deepEqual(nextState(state, trigger), { to: cell[0], event: cell[1] });
            assert.equal(allows(state, trigger), true);
          });
        } else {
          it(`refuses ${trigger}`, () => {
            assert.equal(nextState(state, trigger), null);
            assert.equal(allows(state, trigger), false);
          });
        }
      }
    });
  }

  it("leaves a PROCESSED process alone whatever happens but its wave's rollback", () => {
    for (const trigger of IMPORT_PROCESS_TRIGGERS.filter((t) => t !== 'rollback'))
      assert.equal(nextState('PROCESSED', trigger), null);
  });

  it('expires the windows of dry runs and of real creations from the same states', () => {
    // expireScheduleWindows filters once for both.
    assert.deepEqual(
      IMPORT_PROCESS_TRANSITIONS.expire_dry_run_window.from,
      IMPORT_PROCESS_TRANSITIONS.expire_window.from,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { logProcessEvents } from '../../src/account-import/process-event-log.ts';

describe('the import-process event log', () => {
  const capture = () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    return { lines, log: { info: (obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg }) } };
  };

  it('logs an operator retry as "import process retried" with its own event', () => {
    const { lines, log } = capture();
    logProcessEvents(log as never, 'retry', [{ supplier: 'S', externalAccountNumber: 'e-1' }]);
    assert.deepEqual(lines, [
      {
        obj: {
          event: 'EVENT_ACCOUNT_IMPORT_PROCESS_RETRIED',
          trigger: 'retry',
          status: 'PENDING',
          importSupplier: 'S',
          externalAccountNumber: 'e-1',
        },
        msg: 'import process retried',
      },
    ]);
  });

  it('names each line from the state table: a dry run that failed, with its error code', () => {
    const { lines, log } = capture();
    logProcessEvents(log as never, 'dry_run_fail', [
      { supplier: 'S', externalAccountNumber: 'e-2', importProcessId: '7', errorCode: 'x' },
    ]);
    assert.equal(lines[0].msg, 'import process dry run errored');
    assert.equal(lines[0].obj.errorCode, 'x');
    assert.equal(lines[0].obj.importProcessId, '7');
  });
});

/**
 * One structured log line per import-process event (docs/product.md, Observability), written
 * after the transition committed, named from the state table: the trigger, the event it wrote
 * and the state it left the process in. A worker's claims (STARTED) are not logged one by one:
 * its batch line says them.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  IMPORT_PROCESS_TRANSITIONS,
  type ImportProcessTrigger,
} from '../vocabulary/import-process-states.ts';

export type EventLog = Pick<FastifyBaseLogger, 'info'>;

/** A process an event happened to, as the caller knows it. */
export interface EventProcess {
  supplier: string;
  externalAccountNumber: string;
  importProcessId?: string;
  /** The error code the transition recorded, if any. */
  errorCode?: string;
}

/** `EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_ERRORED` → `import process dry run errored`. */
const messageOf = (event: string) =>
  `import process ${event.replace('EVENT_ACCOUNT_IMPORT_PROCESS_', '').toLowerCase().replaceAll('_', ' ')}`;

/** Logs `trigger`'s event once for each of `processes`. */
export function logProcessEvents(
  log: EventLog,
  trigger: ImportProcessTrigger,
  processes: readonly EventProcess[],
  extra: Record<string, unknown> = {},
): void {
  const { event, to } = IMPORT_PROCESS_TRANSITIONS[trigger];
  const msg = messageOf(event);
  for (const p of processes) {
    log.info(
      {
        event,
        trigger,
        status: to,
        importSupplier: p.supplier,
        externalAccountNumber: p.externalAccountNumber,
        ...(p.importProcessId === undefined ? {} : { importProcessId: p.importProcessId }),
        ...(p.errorCode === undefined ? {} : { errorCode: p.errorCode }),
        ...extra,
      },
      msg,
    );
  }
}

/**
 * Refusals at scheduling (decision 0065): an account refused by V2 create, a bulk line or V1
 * create-or-update leaves no import process, so they are counted here per supplier and code, for
 * /metrics and the supplier's dashboard page. A refusal for the supplier's state (Paused,
 * Complete) says nothing of the account's data, and a push waiting out a pause repeats it every
 * try: those are shown apart (`ferry_supplier_state_refusals_total`, a line of their own), the
 * data-quality ones in `ferry_schedule_refusals_total` and the table (decision 0081).
 */
import { accountOf } from '../../accounts/account-checks.ts';
import { answerOf, type ErrorCode } from '../../errors/error-catalogue.ts';
import { batcher } from '../../infra/batcher.ts';
import { type Queryable, sql } from '../../infra/db/db.ts';

/**
 * Adds refusals, merged per supplier and code ($1 suppliers, $2 codes, $3 counts); a supplier
 * that does not exist is not counted (the refusal said so).
 */
const addRefusals = sql(
  'addScheduleRefusals',
  `INSERT INTO schedule_refusals AS r (import_supplier, code, refusals, last_refused_at)
   SELECT a.supplier, a.code, a.n, now()
     FROM unnest($1::text[], $2::text[], $3::bigint[]) AS a(supplier, code, n)
    WHERE EXISTS (SELECT 1 FROM import_suppliers s WHERE s.code = a.supplier)
    ORDER BY 1, 2
   ON CONFLICT (import_supplier, code)
   DO UPDATE SET refusals = r.refusals + EXCLUDED.refusals, last_refused_at = EXCLUDED.last_refused_at`,
);

export const readScheduleRefusals = sql(
  'readScheduleRefusals',
  `SELECT import_supplier, code, refusals::text AS refusals, last_refused_at
     FROM schedule_refusals ORDER BY import_supplier, refusals DESC, code`,
);

export const readSupplierScheduleRefusals = sql(
  'readSupplierScheduleRefusals',
  `SELECT code, refusals::text AS refusals, last_refused_at
     FROM schedule_refusals WHERE import_supplier = $1 ORDER BY refusals DESC, code`,
);

/** Codes of a refusal for the supplier's state, not the account's data. */
export const SUPPLIER_STATE_REFUSALS: ReadonlySet<string> = new Set([
  'import_supplier_paused',
  'import_supplier_complete',
] satisfies ErrorCode[]);

/** Rows split into refusals of the account's data and refusals for the supplier's state. */
export function splitRefusals<T extends { code: string }>(rows: T[]): { data: T[]; supplierState: T[] } {
  return {
    data: rows.filter((r) => !SUPPLIER_STATE_REFUSALS.has(r.code)),
    supplierState: rows.filter((r) => SUPPLIER_STATE_REFUSALS.has(r.code)),
  };
}

export interface RefusalRow {
  code: string;
  refusals: string;
  last_refused_at: Date;
}

/** The codes a refusal's body counts under: each distinct item code of a validation body, else its code. */
export function refusalCodesOf(body: unknown): string[] {
  const b = (body ?? {}) as Record<string, unknown>;
  if (Array.isArray(b.errors) && b.errors.length > 0) {
    return [...new Set(b.errors.map((e) => String((e as { code?: unknown })?.code ?? 'invalid')))];
  }
  if (typeof b.code === 'string') return [b.code];
  const nested = (b.non_field_errors ?? {}) as { code?: unknown };
  return typeof nested.code === 'string' ? [nested.code] : [];
}

/** Records refusals; concurrent requests share one statement. A failure to count fails no request. */
export type RefusalRecorder = (supplier: unknown, body: unknown) => void;

export function scheduleRefusalRecorder(
  db: Queryable,
  log: { warn: (o: object, msg: string) => void },
): RefusalRecorder {
  const add = batcher(
    async (items: { supplier: string; code: string }[]) => {
      const merged = new Map<string, { supplier: string; code: string; n: number }>();
      for (const { supplier, code } of items) {
        const k = `${supplier}\u0000${code}`;
        const m = merged.get(k) ?? { supplier, code, n: 0 };
        m.n++;
        merged.set(k, m);
      }
      const rows = [...merged.values()];
      await db.query(addRefusals, [
        rows.map((r) => r.supplier),
        rows.map((r) => r.code),
        rows.map((r) => r.n),
      ]);
      return items.map(() => ({ status: 'fulfilled' as const, value: undefined }));
    },
    { maxBatch: 500, maxInFlight: 1 },
  );
  return (supplier, body) => {
    if (typeof supplier !== 'string') return;
    for (const code of refusalCodesOf(body)) {
      add({ supplier, code }).catch((err) => log.warn({ err }, 'could not count a refusal at scheduling'));
    }
  };
}

/** Whether an answer is a refusal of the account to count (not a 403: the supplier is not the caller's). */
const counted = (status: number) => status >= 400 && status < 500 && status !== 403;

/** Runs a schedule, counting its refusal (a 4xx answer) under the body's supplier before it is answered. */
export async function countingRefusal<T>(record: RefusalRecorder, body: unknown, schedule: () => Promise<T>) {
  try {
    return await schedule();
  } catch (err) {
    const answer = answerOf(err);
    if (answer && counted(answer.status)) record(accountOf(body).import_supplier, answer.body);
    throw err;
  }
}

/** Counts the refused lines of a bulk request. */
export function countBulkRefusals(
  record: RefusalRecorder,
  bodies: unknown[],
  answers: { status: number; body: unknown }[],
): void {
  answers.forEach((answer, i) => {
    if (counted(answer.status)) record(accountOf(bodies[i]).import_supplier, answer.body);
  });
}

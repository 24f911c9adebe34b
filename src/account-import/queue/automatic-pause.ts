/**
 * Automatic pause (decision 0068): a supplier whose config has `pause_when_errored` is set Paused
 * by the worker when at least `share` of its last `window` finished processes ended ERRORED, so
 * a bad book stops costing accounts before the operator has looked at it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Counter } from 'prom-client';
import { type Db, sql } from '../../infra/db/db.ts';
import {
  type AutomaticPause,
  type PauseWhenErrored,
  SUPPLIER_CHANGED_CHANNEL,
} from '../../suppliers/suppliers.queries.ts';
import { IMPORT_PROCESS_TRANSITIONS as T } from '../../vocabulary/import-process-states.ts';
import { sqlStates, sqlWord } from '../process-state-sql.ts';

/** How many error codes the pause names (the dashboard's banner shows them). */
const TOP_CODES = 5;
const ERRORED = sqlWord(T.fail.to);

/**
 * For supplier $1: of its last $2 finished processes (PROCESSED or ERRORED, latest first by
 * modified_at, read off the partial index of migration 0017), how many ERRORED and their top
 * codes; and, when that is at least $3 of $2 and $2 have finished, sets the supplier Paused
 * with the reason, records EVENT_SUPPLIER_PAUSED and notifies the supplier caches, all in this
 * one statement. Only an Ongoing supplier is changed: of two workers checking at once, the
 * second waits on the first's row lock, then finds the supplier Paused and changes nothing, so
 * one pause is recorded once. The share is compared as numeric (0.7 × 10 is 7, not 7.000…1).
 */
const pauseWhenErroredSql = sql(
  'pauseSupplierWhenErrored',
  `WITH recent AS (
     SELECT status, coalesce(latest_error->>'code', 'unknown') AS code
       FROM import_processes
      WHERE import_supplier = $1 AND status IN (${sqlStates([T.create.to, T.fail.to])})
      ORDER BY modified_at DESC
      LIMIT $2::int
   ), tally AS (
     SELECT count(*)::int AS finished, count(*) FILTER (WHERE status = ${ERRORED})::int AS errored
       FROM recent
   ), top_codes AS (
     SELECT coalesce(jsonb_agg(jsonb_build_object('code', code, 'count', n) ORDER BY n DESC, code), '[]'::jsonb) AS codes
       FROM (SELECT code, count(*)::int AS n FROM recent WHERE status = ${ERRORED}
              GROUP BY code ORDER BY n DESC, code LIMIT ${TOP_CODES}) c
   ), paused AS (
     UPDATE import_suppliers s
        SET status = 'Paused', modified_at = now(),
            automatic_pause = jsonb_build_object('paused_at', now(), 'window', $2::int, 'share', $3::numeric,
                                                 'errored', t.errored, 'top_error_codes', tc.codes)
       FROM tally t, top_codes tc
      WHERE s.code = $1 AND s.status = 'Ongoing'
        AND t.finished >= $2::int AND t.errored >= $2::int * $3::numeric
     RETURNING s.code, s.automatic_pause, pg_notify('${SUPPLIER_CHANGED_CHANNEL}', s.code) AS notified
   ), event AS (
     INSERT INTO import_supplier_events (import_supplier, event, occurred_at, data)
     SELECT code, 'EVENT_SUPPLIER_PAUSED', now(),
            jsonb_build_object('reason', 'pause_when_errored') || (automatic_pause - 'paused_at')
       FROM paused
   )
   SELECT t.finished, t.errored, p.automatic_pause
     FROM tally t LEFT JOIN paused p ON true`,
);

export interface AutomaticPauseCheck {
  /** Finished processes looked at: `window`, or fewer while fewer have finished. */
  finished: number;
  errored: number;
  /** The pause this check made; null when it made none. */
  pause: AutomaticPause | null;
}

/**
 * Checks `supplier` against its setting and pauses it when the threshold is met (see the SQL);
 * a pause is logged and counted here.
 */
export async function pauseWhenErrored(
  db: Db,
  supplier: string,
  setting: PauseWhenErrored,
  opts: { logger: Pick<FastifyBaseLogger, 'warn'>; pauses?: Counter<'supplier'> | null },
): Promise<AutomaticPauseCheck> {
  const { rows } = await db.query<{
    finished: number;
    errored: number;
    automatic_pause: AutomaticPause | null;
  }>(pauseWhenErroredSql, [supplier, setting.window, setting.share]);
  const { finished, errored, automatic_pause: pause } = rows[0];
  if (pause) {
    opts.pauses?.inc({ supplier });
    opts.logger.warn(
      {
        event: 'import_supplier_paused',
        reason: 'pause_when_errored',
        importSupplier: supplier,
        window: setting.window,
        share: setting.share,
        errored,
        topErrorCodes: pause.top_error_codes,
      },
      `import supplier paused automatically: ${errored} of the last ${setting.window} finished processes ERRORED`,
    );
  }
  return { finished, errored, pause };
}

/**
 * The lease loop: the one loop behind every table that is also a queue (the import queue, the
 * welcome-mail outbox, webhook deliveries). A lane claims due rows under a lease (the
 * source's SQL sets the lease columns, as graphile-worker does), settles them, and claims
 * again at once; several lanes settle side by side but claim in turn. A claim that finds nothing
 * waits about `idlePollMs`, jittered so that many loops on one database do not poll in step; with
 * `idlePollMaxMs`, each further empty claim in a row doubles the wait up to that bound, so an idle
 * fleet of many processes costs the database little (a loop that is woken when work arrives loses
 * no latency by it; decision 0100). A
 * round that throws (the database unavailable, a serialization failure, a deadlock) is logged
 * and tried again after a jittered exponential backoff; rows it had claimed stay leased, and come
 * back when their lease runs out. wake() ends the idle waits at once (rows are known to be due),
 * and a lane whose claim found nothing while it was being woken claims again without waiting.
 * stop() wakes the idle lanes, lets each finish the rows in hand (settle sees its signal aborted
 * and may hand the rest back), and resolves once all have ended, as does `stopped`.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { isTemporaryDbError } from './db/db.ts';

/** What a lease loop claims and settles: one table's SQL and the work on each row. */
export interface LeaseSource<T> {
  /** Work to do before each claim that is not a claim (hand-backs, maintenance); its failure is the round's. */
  prepare?(): Promise<void>;
  /** Claims due rows under a lease; an empty list when none is due. */
  claim(): Promise<readonly T[]>;
  /**
   * Settles the rows one claim returned, each of them. `signal` aborts when the loop is
   * stopping: finish the row in hand and hand back those not started.
   */
  settle(rows: readonly T[], signal: AbortSignal): Promise<void>;
}

export interface LeaseLoopOptions {
  /** Names the loop in its log lines: `<name> loop error; backing off`. */
  name: string;
  logger: { warn(obj: Record<string, unknown>, msg: string): void };
  /** About how long a lane waits after a claim that found nothing (±25 %). */
  idlePollMs: number;
  /**
   * When set above `idlePollMs`: the wait doubles with each empty claim in a row, up to about this
   * long; a claim that finds rows, or wake(), starts again from `idlePollMs`.
   */
  idlePollMaxMs?: number;
  /** Rounds in flight at once, each claiming its own rows, in turn: one claims while another settles. */
  lanes?: number;
  /** After a failed round: about `baseMs`, doubling with each failure in a row, at most `maxMs` (jittered). */
  failureBackoff?: { baseMs: number; maxMs: number };
  /** After each round that claimed rows: how many, and how long claim and settle took (ms). */
  onRound?(claimed: number, ms: number): void;
  /** [0, 1); Math.random unless a test fixes it. */
  random?: () => number;
}

export interface LeaseLoop {
  /** Aborted once stop() is called. */
  readonly signal: AbortSignal;
  /** Resolves once every lane has ended, after stop(). */
  readonly stopped: Promise<void>;
  /** Wakes the lanes, lets each settle what it holds, and resolves when all have ended. */
  stop(): Promise<void>;
  /** Rows may be due now: the idle lanes claim at once, a busy lane claims again without waiting. */
  wake(): void;
}

export const DEFAULT_FAILURE_BACKOFF = { baseMs: 500, maxMs: 10_000 } as const;

/** The wait after `failures` failed rounds in a row: between half and all of the doubled base. */
export function failureBackoffMs(
  failures: number,
  backoff: { baseMs: number; maxMs: number } = DEFAULT_FAILURE_BACKOFF,
  random: () => number = Math.random,
): number {
  const ms = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (failures - 1));
  return ms / 2 + (random() * ms) / 2;
}

/** Starts `opts.lanes` lanes (1 unless said) claiming from `source` until stop(). */
export function startLeaseLoop<T>(source: LeaseSource<T>, opts: LeaseLoopOptions): LeaseLoop {
  const random = opts.random ?? Math.random;
  const backoff = opts.failureBackoff ?? DEFAULT_FAILURE_BACKOFF;
  const stopping = new AbortController();
  const { signal } = stopping;
  const sleep = (ms: number) => delay(ms, undefined, { signal }).catch(() => {});
  /** The idle waits in progress, each ended by wake() or stop(). */
  const idle = new Set<() => void>();
  /** Bumped by wake(): a lane that was woken while claiming does not wait after finding nothing. */
  let wakes = 0;
  const idleWait = (ms: number) =>
    new Promise<void>((resolve) => {
      // Stopped while claiming: an abort listener added now would never hear it.
      if (signal.aborted) return resolve();
      const end = () => {
        clearTimeout(timer);
        idle.delete(end);
        signal.removeEventListener('abort', end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      idle.add(end);
      signal.addEventListener('abort', end, { once: true });
    });

  /**
   * The lanes claim one at a time (they prepare and settle side by side): two claims at once
   * would split a small backlog between two transactions, each scanning past the rows the
   * other holds, where one claim takes it whole.
   */
  let claiming: Promise<unknown> = Promise.resolve();
  function claimInTurn(): Promise<{ rows: readonly T[]; started: number }> {
    const turn = claiming.then(async () => {
      // Stopped while waiting for the turn: claiming now would only hand the rows back.
      if (signal.aborted) return { rows: [], started: 0 };
      const started = performance.now();
      return { rows: await source.claim(), started };
    });
    claiming = turn.catch(() => {});
    return turn;
  }

  /** One round: prepare, claim, settle; the number of rows claimed. */
  async function round(): Promise<number> {
    await source.prepare?.();
    const { rows, started } = await claimInTurn();
    if (rows.length === 0) return 0;
    // Rows came, with or without a notice (a window opened, leases ran out): lanes asleep claim too.
    if (idle.size > 0) wake();
    await source.settle(rows, signal);
    opts.onRound?.(rows.length, performance.now() - started);
    return rows.length;
  }

  function wake() {
    wakes++;
    for (const end of [...idle]) end();
  }

  const maxIdleMs = Math.max(opts.idlePollMs, opts.idlePollMaxMs ?? opts.idlePollMs);
  async function lane(): Promise<void> {
    let failures = 0;
    /** Empty claims in a row, none of them woken: each doubles the next idle wait. */
    let empty = 0;
    while (!signal.aborted) {
      try {
        const wakesBefore = wakes;
        const claimed = await round();
        failures = 0;
        if (claimed > 0 || wakes !== wakesBefore) {
          empty = 0;
          continue;
        }
        const ms = Math.min(maxIdleMs, opts.idlePollMs * 2 ** Math.min(empty++, 30));
        const wakesWaiting = wakes;
        await idleWait(ms * (0.75 + random() / 2));
        if (wakes !== wakesWaiting) empty = 0;
      } catch (err) {
        const wait = failureBackoffMs(++failures, backoff, random);
        opts.logger.warn(
          { err, transient: isTemporaryDbError(err), failures, retryInMs: Math.round(wait) },
          `${opts.name} loop error; backing off`,
        );
        await sleep(wait);
      }
    }
  }

  const stopped = Promise.all(Array.from({ length: opts.lanes ?? 1 }, lane)).then(() => {});
  return {
    signal,
    stopped,
    stop() {
      stopping.abort();
      return stopped;
    },
    wake,
  };
}

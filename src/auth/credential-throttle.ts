/**
 * Failed credential checks per client address (obtainToken's API key or refresh token, the
 * operator key, the dashboard's sign-in): after `maxFailures` failures within `windowMs`, the
 * address is refused (429 `throttled`) until the oldest of them is `windowMs` old. While refused,
 * no check is made at all, so a guess cannot succeed either. Successful checks do not count.
 * Counted for the whole fleet, in PostgreSQL (docs/decisions/0074-fleet-wide-limits.md).
 */
import type { Db } from '../infra/db/db.ts';
import {
  insertCredentialFailure,
  purgeExpiredCredentialFailures,
  recentCredentialFailures,
} from './credential-failures.queries.ts';

export interface CredentialThrottleOptions {
  maxFailures?: number;
  windowMs?: number;
  /** Addresses the local count remembers (LocalCredentialThrottle). */
  maxAddresses?: number;
  now?: () => number;
}

/**
 * The same count in process memory: one process's failures only. The fleet-wide throttle keeps
 * it beside the database, and answers from it alone while the database cannot be reached.
 *
 * Memory is bounded: at most `maxAddresses` addresses are remembered, the least recently failing
 * forgotten first, and each holds at most `maxFailures` times.
 */
export class LocalCredentialThrottle {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly maxAddresses: number;
  readonly #now: () => number;
  /** Address → times of its recent failures, oldest first; Map order = least recently failed first. */
  readonly #failures = new Map<string, number[]>();

  constructor(options: CredentialThrottleOptions = {}) {
    this.maxFailures = options.maxFailures ?? 10;
    this.windowMs = options.windowMs ?? 60_000;
    this.maxAddresses = options.maxAddresses ?? 10_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Addresses remembered now (for tests of the memory bound). */
  get size(): number {
    return this.#failures.size;
  }

  /** Whole seconds the address must wait before its next check, or 0 when it may check now. */
  retryAfter(address: string): number {
    const times = this.#recent(address);
    if (times.length < this.maxFailures) return 0;
    const wait = times[0] + this.windowMs - this.#now();
    return Math.max(1, Math.ceil(wait / 1000));
  }

  recordFailure(address: string): void {
    const times = this.#recent(address);
    times.push(this.#now());
    if (times.length > this.maxFailures) times.shift();
    // Re-inserted so the map's order stays least recently failed first.
    this.#failures.delete(address);
    this.#failures.set(address, times);
    while (this.#failures.size > this.maxAddresses) {
      const oldest = this.#failures.keys().next().value as string;
      this.#failures.delete(oldest);
    }
  }

  /** The address's failures within the window (expired ones dropped; a clean address forgotten). */
  #recent(address: string): number[] {
    const times = this.#failures.get(address);
    if (!times) return [];
    const since = this.#now() - this.windowMs;
    while (times.length > 0 && times[0] <= since) times.shift();
    if (times.length === 0) this.#failures.delete(address);
    return times;
  }
}

interface ThrottleLog {
  warn(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
}

/** Expired failures one purge deletes at most; a purge that deletes as many runs again at the next failure. */
const PURGE_LIMIT = 1_000;

/**
 * The throttle for the whole fleet: each failure is a row in `credential_failures`, and a check
 * counts the address's rows of the window in one indexed query. Both happen on the credential
 * endpoints only (obtainToken, the operator key, the dashboard's sign-in), never on the
 * data-import API. Expired rows of an address go when it fails again; everyone's expired rows
 * are purged, a bounded batch at a time, at most once a window per process.
 *
 * Every failure is also counted in process memory: if the database cannot be reached, the
 * process answers from that count (logged once), and once it can again, the larger of the two
 * counts holds, so failures made during the outage still count.
 */
export class CredentialThrottle {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly #db: Db;
  readonly #local: LocalCredentialThrottle;
  readonly #now: () => number;
  readonly #log: ThrottleLog | undefined;
  #unreachable = false;
  #purgeAt = Number.NEGATIVE_INFINITY;

  constructor(db: Db, options: CredentialThrottleOptions & { logger?: ThrottleLog } = {}) {
    this.#db = db;
    this.#local = new LocalCredentialThrottle(options);
    this.maxFailures = this.#local.maxFailures;
    this.windowMs = this.#local.windowMs;
    this.#now = options.now ?? (() => performance.now());
    this.#log = options.logger;
  }

  /** Whole seconds the address must wait before its next check, or 0 when it may check now. */
  async retryAfter(address: string): Promise<number> {
    const local = this.#local.retryAfter(address);
    try {
      const recent = await recentCredentialFailures(this.#db, {
        address,
        windowMs: this.windowMs,
        max: this.maxFailures,
      });
      this.#reached();
      const shared = recent.failures >= this.maxFailures ? Math.max(1, Math.ceil(recent.waitMs / 1000)) : 0;
      return Math.max(shared, local);
    } catch (err) {
      this.#unreached(err);
      return local;
    }
  }

  async recordFailure(address: string): Promise<void> {
    this.#local.recordFailure(address);
    try {
      await insertCredentialFailure(this.#db, { address, windowMs: this.windowMs });
      this.#reached();
      const now = this.#now();
      if (now >= this.#purgeAt) {
        const purged = await purgeExpiredCredentialFailures(this.#db, {
          windowMs: this.windowMs,
          limit: PURGE_LIMIT,
        });
        this.#purgeAt = purged < PURGE_LIMIT ? now + this.windowMs : now;
      }
    } catch (err) {
      this.#unreached(err);
    }
  }

  #reached() {
    if (!this.#unreachable) return;
    this.#unreachable = false;
    this.#log?.info(
      { event: 'credential_throttle_shared' },
      'credential throttle: the database answers again; failures count for the fleet',
    );
  }

  #unreached(err: unknown) {
    if (this.#unreachable) return;
    this.#unreachable = true;
    this.#log?.warn(
      { event: 'credential_throttle_local', err },
      'credential throttle: the database cannot be reached; failures count per process until it answers',
    );
  }
}

import type { Db } from '../infra/db/db.ts';
import { claimRateLimitTokens, type TokenClaim } from './rate-limit.queries.ts';

/**
 * The per-key rate limit: `ratePerSecond` requests a second, a burst of the same size. take()
 * answers 0 when the request may go on, else the whole seconds to wait (Retry-After); it answers
 * a promise only when it must first hear from the database, so a request that can be decided
 * from memory costs no promise.
 */
export interface RateLimiter {
  take(key: string): number | Promise<number>;
  /** Waits for the claims in flight; nothing is claimed afterwards. */
  close(): Promise<void>;
}

const secondsFor = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * A token bucket per key in process memory: exact for one process, N× the rate for N processes.
 * Used alone on the embedded database (one process by construction), and as the fallback of
 * the shared limiter while the database cannot be reached.
 */
export class LocalRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(key: string): number {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.ratePerSecond, at: t };
    b.tokens = Math.min(this.ratePerSecond, b.tokens + ((t - b.at) / 1000) * this.ratePerSecond);
    b.at = t;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return secondsFor(((1 - b.tokens) / this.ratePerSecond) * 1000);
  }

  async close(): Promise<void> {}
}

/** Takes up to `wanted` tokens of the key's shared bucket (see rate_limit_claim). */
export type ClaimTokens = (key: string, wanted: number) => Promise<TokenClaim>;

interface LimiterLog {
  warn(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
}

export interface SharedRateLimiterOptions {
  ratePerSecond: number;
  claim: ClaimTokens;
  now?: () => number;
  /** Tokens in hand are void this long after the claim that brought them (default 1 s). */
  leaseMs?: number;
  /** A request waits this long for a claim, then the local bucket answers it (default 250 ms). */
  claimWaitMs?: number;
  logger?: LimiterLog;
}

/** Local demand a claim asks for: a quarter of a second's worth, so a chunk is spent well before it expires. */
const DEMAND_SHARE = 0.25;
/** While the shared bucket is unreachable, a claim is tried again this often (in the background). */
const PROBE_MS = 1_000;

/** What one process holds of one key's shared bucket. */
class KeyLease {
  /** Whole tokens granted and not yet spent. */
  held = 0;
  /** held is void from this time on. */
  expiresAt = 0;
  /** The shared bucket had too few tokens: no claim before this time. */
  nextClaimAt = 0;
  /** Claim below this many held tokens (half the last grant). */
  lowWater = 1;
  /** Tokens spent since the last claim, and when it was sent: the local demand. */
  spent = 0;
  claimedAt = Number.NEGATIVE_INFINITY;
  /** Requests waiting for a claim now. */
  waiting = 0;
  /** The claim in flight (it never rejects). */
  claim: Promise<void> | null = null;
  /** What requests wait on: the claim, or claimWaitMs from the first of them, whichever is first. */
  wait: Promise<void> | null = null;
}

/**
 * The per-key rate limit held for the whole fleet (docs/decisions/0074-fleet-wide-limits.md).
 * Each key has one token bucket in PostgreSQL; a process claims tokens from it in chunks of at
 * most rate/20 and spends them in memory, claiming the next chunk in the background when half
 * of the last one is spent. A request waits for a claim only when its process holds no token
 * (a key's first request, or after a quiet second). When the bucket is empty the answer says
 * when a chunk will be there again, and until then the process refuses from memory, so a key
 * far over its limit costs about 1000 / (chunk time) claims a second per process, not one per
 * request. Every token the fleet spends came out of the shared bucket, so the fleet's sustained
 * rate is the configured one; what a burst can exceed it by is the tokens in hand, at most
 * 1.5 chunks per process, and those expire after leaseMs.
 *
 * If a claim fails, or a request waits on one longer than claimWaitMs, this process falls back
 * to its own local bucket (logged once) and tries a claim in the background every second until
 * one succeeds.
 */
export class SharedRateLimiter implements RateLimiter {
  /** The most a claim asks for: rate / 20, at least 1. */
  readonly maxChunk: number;
  private readonly rate: number;
  private readonly claimTokens: ClaimTokens;
  private readonly now: () => number;
  private readonly leaseMs: number;
  private readonly claimWaitMs: number;
  private readonly log: LimiterLog | undefined;
  private readonly leases = new Map<string, KeyLease>();
  private readonly local: LocalRateLimiter;
  private readonly inFlight = new Set<Promise<void>>();
  /** Set while the shared bucket cannot be reached: the local bucket answers until then. */
  private degradedSince: number | null = null;
  private nextProbeAt = 0;
  private closed = false;

  constructor(opts: SharedRateLimiterOptions) {
    this.rate = opts.ratePerSecond;
    this.claimTokens = opts.claim;
    this.now = opts.now ?? (() => performance.now());
    this.leaseMs = opts.leaseMs ?? 1_000;
    this.claimWaitMs = opts.claimWaitMs ?? 250;
    this.log = opts.logger;
    this.maxChunk = Math.max(1, Math.floor(this.rate / 20));
    this.local = new LocalRateLimiter(this.rate, this.now);
  }

  /** Whether the local bucket answers for now (the shared one could not be reached). */
  get degraded(): boolean {
    return this.degradedSince !== null;
  }

  /** Tokens this process holds for the key now (for tests). */
  held(key: string): number {
    const lease = this.leases.get(key);
    return lease && this.now() < lease.expiresAt ? lease.held : 0;
  }

  take(key: string): number | Promise<number> {
    const now = this.now();
    let lease = this.leases.get(key);
    if (!lease) {
      lease = new KeyLease();
      this.leases.set(key, lease);
    }
    if (this.degradedSince !== null) {
      if (now >= this.nextProbeAt && !lease.claim && !this.closed) {
        this.nextProbeAt = now + PROBE_MS;
        this.startClaim(key, lease);
      }
      return this.local.take(key);
    }
    if (lease.held > 0 && now >= lease.expiresAt) lease.held = 0;
    if (lease.held >= 1) {
      lease.held -= 1;
      lease.spent += 1;
      if (lease.held < lease.lowWater && !lease.claim && now >= lease.nextClaimAt && !this.closed) {
        this.startClaim(key, lease);
      }
      return 0;
    }
    if (now < lease.nextClaimAt) return secondsFor(lease.nextClaimAt - now);
    if (this.closed) return this.local.take(key);
    if (!lease.claim) this.startClaim(key, lease);
    lease.waiting += 1;
    return this.waitForClaim(lease).then(() => {
      lease.waiting -= 1;
      return this.take(key);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * How many tokens to ask for: a quarter of a second of what this process spent since its last
   * claim (when that was within the lease), at least the requests waiting now, at most maxChunk.
   */
  private wanted(lease: KeyLease, now: number): number {
    const elapsed = now - lease.claimedAt;
    const recent =
      elapsed > 0 && elapsed <= this.leaseMs ? Math.ceil(((lease.spent * 1000) / elapsed) * DEMAND_SHARE) : 0;
    return Math.min(this.maxChunk, Math.max(1, recent, lease.waiting + 1));
  }

  /** Sends one claim for the key; what it brings is added to the lease, a failure switches to the local bucket. */
  private startClaim(key: string, lease: KeyLease) {
    const sentAt = this.now();
    const wanted = this.wanted(lease, sentAt);
    lease.claimedAt = sentAt;
    lease.spent = 0;
    const claim = this.claimTokens(key, wanted)
      .then(
        (answer) => this.granted(lease, wanted, answer),
        (err: unknown) => this.degrade(err),
      )
      .finally(() => {
        this.inFlight.delete(claim);
        lease.claim = null;
      });
    this.inFlight.add(claim);
    lease.claim = claim;
  }

  /**
   * The claim in flight, for requests that have no token until it is answered. A claim sent ahead
   * of need (half the last grant spent) may take its time; once a request waits on it, it has
   * claimWaitMs to answer before this process switches to its local bucket.
   */
  private waitForClaim(lease: KeyLease): Promise<void> {
    if (lease.wait) return lease.wait;
    let timer: NodeJS.Timeout | undefined;
    const wait = Promise.race([
      lease.claim!,
      new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.degrade(new Error(`no answer to a rate-limit claim within ${this.claimWaitMs} ms`));
          resolve();
        }, this.claimWaitMs);
        timer.unref();
      }),
    ]).finally(() => {
      clearTimeout(timer);
      if (lease.wait === wait) lease.wait = null;
    });
    lease.wait = wait;
    return wait;
  }

  private granted(lease: KeyLease, wanted: number, claim: TokenClaim) {
    const now = this.now();
    if (lease.held > 0 && now >= lease.expiresAt) lease.held = 0;
    lease.held += claim.granted;
    lease.expiresAt = now + this.leaseMs;
    lease.lowWater = Math.max(1, Math.floor(claim.granted / 2));
    // Short of a whole chunk: wait until the bucket has one (a full grant with a short bucket too).
    lease.nextClaimAt = claim.granted < wanted || claim.waitMs > 0 ? now + Math.max(1, claim.waitMs) : 0;
    if (this.degradedSince !== null) {
      this.log?.info(
        { event: 'rate_limit_shared', degraded_ms: Math.round(now - this.degradedSince) },
        'rate limit: the shared bucket answers again; the limit holds for the fleet',
      );
      this.degradedSince = null;
    }
  }

  private degrade(err: unknown) {
    if (this.degradedSince !== null) return;
    const now = this.now();
    this.degradedSince = now;
    this.nextProbeAt = now + PROBE_MS;
    this.log?.warn(
      { event: 'rate_limit_local', err },
      'rate limit: the shared bucket cannot be reached; each process limits alone until it answers',
    );
  }
}

/**
 * The limiter for a database: on a PostgreSQL server, shared by every process using it; on the
 * embedded one (one process by construction), the local bucket, which is then exact.
 */
export function rateLimiterFor(db: Db, ratePerSecond: number, logger?: LimiterLog): RateLimiter {
  if (db.kind === 'pglite') return new LocalRateLimiter(ratePerSecond);
  return new SharedRateLimiter({
    ratePerSecond,
    claim: (key, wanted) => claimRateLimitTokens(db, { key, rate: ratePerSecond, wanted }),
    logger,
  });
}

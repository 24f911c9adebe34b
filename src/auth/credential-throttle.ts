/**
 * Failed credential checks per client address (obtainToken's API key or refresh token, the
 * operator key): after `maxFailures` failures within `windowMs`, the address is refused (429
 * `throttled`) until the oldest of them is `windowMs` old. While refused, no check is made at
 * all, so a guess cannot succeed either. Successful checks do not count.
 *
 * Memory is bounded: at most `maxAddresses` addresses are remembered, the least recently failing
 * forgotten first, and each holds at most `maxFailures` times. Held in process memory, like the
 * per-key rate limit (docs/decisions/0007).
 */
export interface CredentialThrottleOptions {
  maxFailures?: number;
  windowMs?: number;
  maxAddresses?: number;
  now?: () => number;
}

export class CredentialThrottle {
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

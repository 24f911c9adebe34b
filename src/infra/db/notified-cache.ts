import type { Db } from './db.ts';

/** Enough for every key of every supplier; past it, the oldest entry makes room. */
const MAX_ENTRIES = 10_000;
/** Cached key and supplier state is re-read after at most 30 s (docs/product.md, Authentication and tenancy). */
export const DEFAULT_CACHE_MAX_AGE_MS = 30_000;

export interface NotifiedCacheOptions {
  /** An entry older than this is read again, whatever the notifications said (0: never cached). */
  maxAgeMs?: number;
}

/**
 * Rows kept in memory until a change says otherwise: whoever changes a row NOTIFYs `channel`
 * with its key in the same transaction, and every process drops the key when the
 * notification arrives (at that commit); the process making the change calls forget() before
 * it answers. While the listening connection is down nothing is cached, so every read goes to
 * the database, as with no cache at all. Only found rows are kept: a miss is asked again.
 * Whatever the feed says, an entry is read again once it is maxAgeMs old: a feed that died
 * without anyone noticing (docs/decisions/0024-database-faults.md) is stale for at most that.
 */
export class NotifiedCache<V> {
  /** Each value with when its read started (Date.now()). */
  private readonly entries = new Map<string, { value: V; at: number }>();
  /** Bumped by every invalidation: a read that started before one must not be cached after it. */
  private generation = 0;
  private live = false;
  private unlisten: (() => Promise<void>) | null = null;

  private constructor(
    private readonly load: (key: string) => Promise<V | null>,
    private readonly maxAgeMs: number,
  ) {}

  static async open<V>(
    db: Db,
    channel: string,
    load: (key: string) => Promise<V | null>,
    opts: NotifiedCacheOptions = {},
  ) {
    const cache = new NotifiedCache(load, opts.maxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS);
    cache.unlisten = await db.listen(channel, {
      onMessage: (key) => cache.forget(key),
      onLive: (live) => {
        cache.live = live;
        cache.generation++;
        cache.entries.clear();
      },
    });
    return cache;
  }

  /** The cached value while it is fresh, without waiting; undefined when get() must load it. */
  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit !== undefined && Date.now() - hit.at < this.maxAgeMs ? hit.value : undefined;
  }

  async get(key: string): Promise<V | null> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      if (now - hit.at < this.maxAgeMs) return hit.value;
      this.entries.delete(key);
    }
    const generation = this.generation;
    const value = await this.load(key);
    if (value !== null && this.live && generation === this.generation && this.maxAgeMs > 0) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { value, at: now });
    }
    return value;
  }

  forget(key: string) {
    this.generation++;
    this.entries.delete(key);
  }

  async close() {
    await this.unlisten?.();
  }
}

import type { Db } from './db.ts';

/** Enough for every key of every supplier; past it, the oldest entry makes room. */
const MAX_ENTRIES = 10_000;

/**
 * Rows kept in memory until a change says otherwise: whoever changes a row NOTIFYs `channel`
 * with its key in the same transaction, and every process drops the key when the
 * notification arrives (at that commit); the process making the change calls forget() before
 * it answers. While the listening connection is down nothing is cached, so every read goes to
 * the database, as with no cache at all. Only found rows are kept: a miss is asked again.
 */
export class NotifiedCache<V> {
  private readonly entries = new Map<string, V>();
  /** Bumped by every invalidation: a read that started before one must not be cached after it. */
  private generation = 0;
  private live = false;
  private unlisten: (() => Promise<void>) | null = null;

  private constructor(private readonly load: (key: string) => Promise<V | null>) {}

  static async open<V>(db: Db, channel: string, load: (key: string) => Promise<V | null>) {
    const cache = new NotifiedCache(load);
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

  async get(key: string): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await this.load(key);
    if (value !== null && this.live && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, value);
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

import type { Db } from '../infra/db/db.ts';
import { type ApiKeyScope, activeKeyScope, KEY_REVOKED_CHANNEL, revokeApiKey } from './api-keys.ts';

/** Enough for every key of every supplier; past it, the oldest entry makes room. */
const MAX_ENTRIES = 10_000;

/**
 * The scopes of active API keys, kept in memory so an authenticated request needs no query.
 * Revocation stays immediate: a revoke through this process drops the key before it answers,
 * and every other process drops it when the revoke's NOTIFY arrives (at the revoke's commit).
 * While the listening connection is down, nothing is cached and every request asks the
 * database, as it would with no cache at all.
 */
export class KeyScopes {
  private readonly scopes = new Map<string, ApiKeyScope>();
  /** Bumped by every invalidation: a read that started before one must not be cached after it. */
  private generation = 0;
  private live = false;
  private unlisten: (() => Promise<void>) | null = null;

  private constructor(private readonly db: Db) {}

  static async open(db: Db): Promise<KeyScopes> {
    const cache = new KeyScopes(db);
    cache.unlisten = await db.listen(KEY_REVOKED_CHANNEL, {
      onMessage: (id) => cache.forget(id),
      onLive: (live) => {
        cache.live = live;
        cache.clear();
      },
    });
    return cache;
  }

  /** The scope of a key that is still active, or null. */
  async active(id: string): Promise<ApiKeyScope | null> {
    const hit = this.scopes.get(id);
    if (hit) return hit;
    const generation = this.generation;
    const scope = await activeKeyScope(this.db, id);
    if (scope && this.live && generation === this.generation) {
      if (this.scopes.size >= MAX_ENTRIES) this.scopes.delete(this.scopes.keys().next().value!);
      this.scopes.set(id, scope);
    }
    return scope;
  }

  /** Revokes the key; false when no key has that id. */
  async revoke(id: string): Promise<boolean> {
    this.forget(id);
    const found = await revokeApiKey(this.db, id);
    this.forget(id);
    return found;
  }

  private forget(id: string) {
    this.generation++;
    this.scopes.delete(id);
  }

  private clear() {
    this.generation++;
    this.scopes.clear();
  }

  async close() {
    await this.unlisten?.();
  }
}

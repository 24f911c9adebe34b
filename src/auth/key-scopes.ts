import type { Db } from '../infra/db/db.ts';
import { NotifiedCache, type NotifiedCacheOptions } from '../infra/db/notified-cache.ts';
import { type ApiKeyScope, activeKeyScope, KEY_REVOKED_CHANNEL, revokeApiKey } from './api-keys.ts';

/**
 * The scopes of active API keys, kept in memory so an authenticated request needs no query.
 * Revocation stays immediate: a revoke through this process drops the key before it answers,
 * and every other process drops it when the revoke's NOTIFY arrives (see NotifiedCache).
 */
export class KeyScopes {
  private constructor(
    private readonly db: Db,
    private readonly cache: NotifiedCache<ApiKeyScope>,
  ) {}

  static async open(db: Db, opts: NotifiedCacheOptions = {}): Promise<KeyScopes> {
    return new KeyScopes(
      db,
      await NotifiedCache.open(db, KEY_REVOKED_CHANNEL, (id) => activeKeyScope(db, id), opts),
    );
  }

  /** The scope of a key that is still active, or null. */
  active(id: string): Promise<ApiKeyScope | null> {
    return this.cache.get(id);
  }

  /** The key's scope when it is cached and fresh, without waiting; undefined: ask active(). */
  cachedActive(id: string): ApiKeyScope | undefined {
    return this.cache.peek(id);
  }

  /** Revokes the key; false when no key has that id. */
  async revoke(id: string): Promise<boolean> {
    this.cache.forget(id);
    const found = await revokeApiKey(this.db, id);
    this.cache.forget(id);
    return found;
  }

  close() {
    return this.cache.close();
  }
}

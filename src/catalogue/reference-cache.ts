/**
 * Keeps this process's reference data (reference-data.ts) current: loaded whole at start, and
 * again whenever an upload's NOTIFY arrives (at its commit, so every process of the fleet has the
 * new version within a second), or when the listening connection comes back (a notification may
 * have been missed). Loads are serialised and coalesced: a burst of uploads is one reload after
 * the one in flight. Check threads get the new version from the event loop (account-checks.ts).
 */
import type { Db } from '../infra/db/db.ts';
import { loadCatalogue, PRODUCTS } from './catalogue.queries.ts';
import { loadCodeLists } from './code-lists.queries.ts';
import { CODE_LIST_NAMES } from './code-lists.ts';
import { currentReference, installReference, ReferenceData } from './reference-data.ts';
import { currentVersions, REFERENCE_CHANGED_CHANNEL } from './reference-versions.queries.ts';

export interface ReferenceCacheOptions {
  timeZone: string;
  /** Told of a reload that failed (the previous version stays in use). */
  onError?: (err: unknown) => void;
}

export class ReferenceCache {
  #unlisten: (() => Promise<void>) | null = null;
  #loading: Promise<void> | null = null;
  #again = false;
  #closed = false;
  /** Reloads done (a test and /metrics read it). */
  loads = 0;

  private constructor(
    private readonly db: Db,
    private readonly options: ReferenceCacheOptions,
  ) {}

  static async open(db: Db, options: ReferenceCacheOptions): Promise<ReferenceCache> {
    const cache = new ReferenceCache(db, options);
    await cache.reload();
    cache.#unlisten = await db.listen(REFERENCE_CHANGED_CHANNEL, {
      onMessage: () => void cache.refresh(),
      onLive: (live) => {
        if (live) void cache.refresh();
      },
    });
    return cache;
  }

  /** Reloads soon: after the load in flight, if there is one. Never throws. */
  refresh(): Promise<void> {
    if (this.#loading) {
      this.#again = true;
      return this.#loading;
    }
    this.#loading = (async () => {
      try {
        do {
          this.#again = false;
          await this.reload().catch((err) => this.options.onError?.(err));
        } while (this.#again && !this.#closed);
      } finally {
        this.#loading = null;
      }
    })();
    return this.#loading;
  }

  /** Reads the current versions and, when they differ from what this process holds, the data. */
  async reload(): Promise<void> {
    const versions = await currentVersions(this.db);
    const key = [...versions.values()]
      .map((v) => `${v.registry}@${v.version}`)
      .sort()
      .join(';');
    if (key === currentReference().key || (key === '' && currentReference() === ReferenceData.EMPTY)) return;
    const catalogueVersion = versions.get(PRODUCTS);
    const [catalogue, lists] = await Promise.all([
      catalogueVersion ? loadCatalogue(this.db) : null,
      loadCodeLists(this.db, versions),
    ]);
    if (this.#closed) return;
    installReference(
      ReferenceData.build({
        key: key === '' ? 'none' : key,
        products: catalogue?.products ?? null,
        lists,
        timeZone: this.options.timeZone,
      }),
    );
    this.loads++;
  }

  /** What /readyz says of the reference data this process checks against. */
  detail(): Record<string, unknown> {
    const data = currentReference();
    return {
      catalogue:
        data.products === null
          ? 'none loaded: tariff and product codes are checked for their form only'
          : {
              version: data.versionOf(PRODUCTS),
              products: data.products.size,
              tariffs: data.tariffs?.size ?? 0,
            },
      code_lists: Object.fromEntries(
        CODE_LIST_NAMES.map((name) => [
          name,
          data.list(name) ? data.versionOf(name) : 'none loaded: form check only',
        ]),
      ),
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#unlisten?.();
    await this.#loading;
  }
}

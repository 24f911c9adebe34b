/**
 * What every domain check receives: today's date, a place to report errors, and a way to ask
 * whether part of the payload passed structural validation. Domain checks run even when there
 * are structural errors elsewhere (all errors are reported at once), but never over a part whose
 * types cannot be trusted: `isClean` says whether that part is safe to read as typed.
 */
import type { ErrorItem } from '../errors/error-items.ts';
import type { ItemCode } from '../errors/item-codes.ts';

export class CheckContext {
  readonly errors: ErrorItem[] = [];
  /** The blocked paths, and every path above one of them: each look-up costs the path's depth. */
  readonly #blocked: ReadonlySet<string>;
  readonly #aboveBlocked: ReadonlySet<string>;

  constructor(
    /** Today in the service time zone, `YYYY-MM-DD`. */
    readonly today: string,
    blockedPaths: readonly string[] = [],
  ) {
    this.#blocked = new Set(blockedPaths);
    const above = new Set<string>();
    for (const blocked of blockedPaths) for (const prefix of prefixesOf(blocked)) above.add(prefix);
    this.#aboveBlocked = above;
  }

  /** `code` is one of the item-code catalogue's (src/errors/item-codes.ts): the compiler checks it. */
  report(attr: string, code: ItemCode, detail: string): void {
    this.errors.push({ detail, code, attr });
  }

  /**
   * True when no blocking structural error lies at, under or above any of `paths`; so the value
   * there, and everything in it, has its declared type. `''` is the whole payload.
   */
  isClean(...paths: string[]): boolean {
    if (this.#blocked.size === 0) return true;
    return paths.every((path) => path !== '' && !this.#aboveBlocked.has(path) && this.isSound(path));
  }

  /**
   * True when the value at `path` itself has its declared type (no blocking error at it or
   * above it), though something inside it may not: enough to read a scalar or a list's length.
   */
  isSound(path: string): boolean {
    if (this.#blocked.size === 0) return true;
    if (this.#blocked.has('') || this.#blocked.has(path)) return false;
    return !prefixesOf(path).some((prefix) => this.#blocked.has(prefix));
  }
}

/** The paths strictly above `path`: `a.0.b` → `a`, `a.0`. */
function prefixesOf(path: string): string[] {
  const prefixes: string[] = [];
  for (let i = path.indexOf('.'); i !== -1; i = path.indexOf('.', i + 1)) prefixes.push(path.slice(0, i));
  return prefixes;
}

/** `attr('supply_addresses', 0, 'meter_points')` → `supply_addresses.0.meter_points`. */
export function attr(...parts: Array<string | number>): string {
  return parts.join('.');
}

export interface Located<T> {
  value: T;
  path: string;
  index: number;
}

/**
 * The items of a list that are safe to read as typed, with their paths. A value that is not a
 * list (already reported structurally) has none.
 */
export function cleanItems<T>(
  ctx: CheckContext,
  list: readonly T[] | null | undefined,
  path: string,
): Array<Located<T>> {
  const items: Array<Located<T>> = [];
  if (!Array.isArray(list)) return items;
  for (let index = 0; index < list.length; index++) {
    const itemPath = `${path}.${index}`;
    if (ctx.isClean(itemPath)) items.push({ value: list[index], path: itemPath, index });
  }
  return items;
}

/** The length of a list, 0 for anything else. */
export function count(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

/** True for a string with something in it: the reference treats `""` like an absent value. */
export function isFilled(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

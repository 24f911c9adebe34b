/**
 * The reference data the account checks consult (decision 0090): the current catalogue (tariffs
 * and products by code, in Maps) and the current code lists (sets of values), held in memory by
 * every process and every check thread. One instance per version: built once when an upload
 * arrives, then only read, so a check costs a Map look-up and allocates nothing.
 *
 * `null` catalogue / absent list: nothing was ever uploaded for that registry, and its checks are
 * the form checks of before (docs/decisions/0091).
 *
 * A check thread cannot read the database: it gets the data as a compact snapshot (one JSON
 * text) once per version (account-checks.ts asks for it when the thread's version is not the
 * event loop's).
 */
import { localDate } from '../infra/clock.ts';
import { addDays } from '../vocabulary/calendar-date.ts';
import type { Fuel, PaymentMethod, Product, Region } from './product-lines.ts';

export interface ProductEntry {
  code: string;
  fuel: Fuel;
  isVariable: boolean;
  isTracker: boolean;
  isPrepay: boolean;
  /** The first day an agreement may start on (its start not before available_from). */
  fromDay: string;
  /** The first day an agreement may no longer start on; null: no end. */
  toDay: string | null;
  /** All the bands its tariffs list (a supply charge names the product, not the tariff). */
  bands: ReadonlySet<string>;
}

export interface TariffEntry {
  code: string;
  product: ProductEntry;
  region: Region;
  paymentMethod: PaymentMethod;
  registers: number;
  bands: ReadonlySet<string>;
}

type SnapshotTariff = [
  code: string,
  region: Region,
  paymentMethod: PaymentMethod,
  registers: number,
  bands: string[],
];
type SnapshotProduct = [
  code: string,
  fuel: Fuel,
  flags: number,
  fromDay: string,
  toDay: string | null,
  tariffs: SnapshotTariff[],
];
interface Snapshot {
  key: string;
  products: SnapshotProduct[] | null;
  lists: Array<[name: string, values: string[]]>;
}

const VARIABLE = 1;
const TRACKER = 2;
const PREPAY = 4;

export class ReferenceData {
  static readonly EMPTY = new ReferenceData('none', null, new Map());

  readonly products: ReadonlyMap<string, ProductEntry> | null;
  readonly tariffs: ReadonlyMap<string, TariffEntry> | null;

  private constructor(
    /** Names this data: equal keys, equal data (the versions it was built from). */
    readonly key: string,
    snapshotProducts: SnapshotProduct[] | null,
    readonly lists: ReadonlyMap<string, ReadonlySet<string>>,
  ) {
    if (snapshotProducts === null) {
      this.products = null;
      this.tariffs = null;
      return;
    }
    const products = new Map<string, ProductEntry>();
    const tariffs = new Map<string, TariffEntry>();
    // Most tariffs list the same few bands: one Set per distinct list, not one per tariff.
    const bandSets = new Map<string, ReadonlySet<string>>();
    const bandsOf = (list: string[]) => {
      const key = list.join('\u0000');
      let set = bandSets.get(key);
      if (!set) {
        set = new Set(list);
        bandSets.set(key, set);
      }
      return set;
    };
    for (const [code, fuel, flags, fromDay, toDay, list] of snapshotProducts) {
      const bands = new Set<string>();
      const product: ProductEntry = {
        code,
        fuel,
        isVariable: (flags & VARIABLE) !== 0,
        isTracker: (flags & TRACKER) !== 0,
        isPrepay: (flags & PREPAY) !== 0,
        fromDay,
        toDay,
        bands,
      };
      products.set(code, product);
      for (const [tariffCode, region, paymentMethod, registers, tariffBands] of list) {
        for (const band of tariffBands) bands.add(band);
        tariffs.set(tariffCode, {
          code: tariffCode,
          product,
          region,
          paymentMethod,
          registers,
          bands: bandsOf(tariffBands),
        });
      }
    }
    this.products = products;
    this.tariffs = tariffs;
  }

  /** The version of `registry` this data holds (from its key); null: none. */
  versionOf(registry: string): number | null {
    for (const part of this.key.split(';')) {
      const at = part.lastIndexOf('@');
      if (part.slice(0, at) === registry) return Number(part.slice(at + 1));
    }
    return null;
  }

  /** The values of code list `name`; undefined when it was never uploaded. */
  list(name: string): ReadonlySet<string> | undefined {
    return this.lists.get(name);
  }

  /**
   * Built from what the database holds: `products` null when no catalogue was ever uploaded;
   * availability turned into days of the service's time zone once, here.
   */
  static build(options: {
    key: string;
    products: readonly Product[] | null;
    lists: ReadonlyMap<string, readonly string[]>;
    timeZone: string;
  }): { data: ReferenceData; snapshot: () => string } {
    const { key, products, lists, timeZone } = options;
    const compact =
      products?.map(
        (p): SnapshotProduct => [
          p.code,
          p.fuel,
          (p.is_variable ? VARIABLE : 0) | (p.is_tracker ? TRACKER : 0) | (p.is_prepay ? PREPAY : 0),
          firstDayFrom(p.available_from, timeZone),
          p.available_to === null ? null : firstDayFrom(p.available_to, timeZone),
          p.tariffs.map((t) => [t.code, t.region, t.payment_method, t.registers, t.rate_bands]),
        ],
      ) ?? null;
    const listEntries = [...lists].map(([name, values]): [string, string[]] => [name, [...values]]);
    const data = new ReferenceData(key, compact, new Map(listEntries.map(([n, v]) => [n, new Set(v)])));
    let text: string | undefined;
    // The snapshot is written when a thread first asks for it, once per version.
    const snapshot = () => {
      text ??= JSON.stringify({ key, products: compact, lists: listEntries } satisfies Snapshot);
      return text;
    };
    return { data, snapshot };
  }

  /** The data a snapshot (`build(...).snapshot()`) describes: what a check thread holds. */
  static fromSnapshot(text: string): ReferenceData {
    const snapshot = JSON.parse(text) as Snapshot;
    return new ReferenceData(
      snapshot.key,
      snapshot.products,
      new Map(snapshot.lists.map(([name, values]) => [name, new Set(values)])),
    );
  }
}

/**
 * The first day (in `timeZone`) whose start is at or after `moment`: a date is the start of that
 * day; a datetime after midnight makes the next day the first whole one.
 */
export function firstDayFrom(moment: string, timeZone: string): string {
  if (moment.length === 10) return moment;
  const at = Date.parse(moment);
  const day = localDate(new Date(at), timeZone);
  const midnight = localDate(new Date(at - 1), timeZone) !== day;
  return midnight ? day : addDays(day, 1);
}

let current: { data: ReferenceData; snapshot: () => string } = {
  data: ReferenceData.EMPTY,
  snapshot: () => JSON.stringify({ key: 'none', products: null, lists: [] } satisfies Snapshot),
};

/** The reference data this process (or this check thread) checks against now. */
export function currentReference(): ReferenceData {
  return current.data;
}

/** The current data's snapshot text, for a check thread that holds another version. */
export function currentSnapshot(): string {
  return current.snapshot();
}

/** Makes `built` the data every later check of this process or thread reads. */
export function installReference(built: { data: ReferenceData; snapshot: () => string }): void {
  current = built;
}

/** In a check thread: installs the snapshot's data. */
export function installSnapshot(text: string): void {
  current = { data: ReferenceData.fromSnapshot(text), snapshot: () => text };
}

/**
 * The identifiers of an account that no other account may carry (docs/product.md, The book):
 * meter point identifiers (MPAN/MPRN), account references (namespace and value) and debt CAIS
 * references. Import processes reserve them when they are scheduled; the worker checks the first
 * two again against the accounts' own records.
 */

export type UniqueIdentifierKind = 'meter_point' | 'reference' | 'cais_reference';

export interface UniqueIdentifier {
  kind: UniqueIdentifierKind;
  /** What is unique: the identifier, or `namespace=value` for a reference (a namespace has no `=`). */
  key: string;
  /** Where the account gives it: the `attr` of a conflict on it. */
  attr: string;
}

/** The item code a conflict on each kind is reported with. */
export const CONFLICT_CODES = {
  meter_point: 'meter_point_on_another_account',
  reference: 'reference_already_exists',
  cais_reference: 'cais_reference_already_in_use_on_another_account',
} as const satisfies Record<UniqueIdentifierKind, string>;

/** What people call each kind, for details. */
export const KIND_NAMES: Record<UniqueIdentifierKind, string> = {
  meter_point: 'Meter point',
  reference: 'Reference',
  cais_reference: 'CAIS reference',
};

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

/**
 * The unique identifiers of an account payload, each once (the first place it is given), in the
 * payload's order. Reads any shape: a field that is not a non-blank string is passed over, so
 * validate can report conflicts beside the payload's other errors.
 */
export function uniqueIdentifiersOf(payload: unknown): UniqueIdentifier[] {
  const account = record(payload);
  const found: UniqueIdentifier[] = [];
  const seen = new Set<string>();
  const add = (kind: UniqueIdentifierKind, key: string | null, attr: string) => {
    if (key === null || seen.has(`${kind}:${key}`)) return;
    seen.add(`${kind}:${key}`);
    found.push({ kind, key, attr });
  };
  list(account.supply_addresses).forEach((address, i) => {
    list(record(address).meter_points).forEach((mp, j) => {
      add('meter_point', text(record(mp).identifier), `supply_addresses.${i}.meter_points.${j}.identifier`);
    });
  });
  list(account.references).forEach((ref, i) => {
    const { namespace, value } = record(ref);
    const ns = text(namespace);
    const v = text(value);
    add(
      'reference',
      ns !== null && v !== null && !ns.includes('=') ? `${ns}=${v}` : null,
      `references.${i}.value`,
    );
  });
  add('cais_reference', text(record(account.debt).cais_reference), 'debt.cais_reference');
  list(account.debts).forEach((debt, i) => {
    add('cais_reference', text(record(debt).cais_reference), `debts.${i}.cais_reference`);
  });
  return found;
}

/** An account a schedule (or a validate) would bring: whose it is, and what it would reserve. */
export interface ReservationRequest {
  supplier: string | null;
  external: string | null;
  identifiers: UniqueIdentifier[];
}

/** The request of a payload: its supplier and external number as the payload gives them. */
export function reservationRequestOf(
  payload: unknown,
  identifiers = uniqueIdentifiersOf(payload),
): ReservationRequest {
  const account = (payload ?? {}) as Record<string, unknown>;
  const key = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
  return {
    supplier: key(account.import_supplier),
    external: key(account.external_account_number),
    identifiers,
  };
}

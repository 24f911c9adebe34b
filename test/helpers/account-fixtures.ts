import { readFileSync } from 'node:fs';
import { mpanCheckDigit } from '../../src/accounts/payload/meter-points/mpan.ts';
import { mprnCheckDigits } from '../../src/accounts/payload/meter-points/mprn.ts';

// biome-ignore lint/suspicious/noExplicitAny: fixture JSON
type Obj = Record<string, any>;

// The reference's example account (its fidelity is checked in test/accounts/payload/fixtures.test.ts).
const EXAMPLE = readFileSync(new URL('../fixtures/reference-examples/account.json', import.meta.url), 'utf8');

/** A fresh copy of the reference's example account (test/fixtures/reference-examples/), untouched. */
export const exampleAccount = (): Obj => JSON.parse(EXAMPLE);

/** A valid MPAN core whose digits derive from n (unique per n below 10^11). */
export function mpanFor(n: number): string {
  const first12 = `1${String(n).padStart(11, '0')}`;
  return `${first12}${mpanCheckDigit(first12)}`;
}

/** A valid 10-digit MPRN whose digits derive from n (unique per n below 10^7). */
export function mprnFor(n: number): string {
  const first8 = `7${String(n).padStart(7, '0')}`;
  return `${first8}${mprnCheckDigits(first8)}`;
}

/**
 * The example account made unique by n: its own external number, meter points, meter serials
 * and reference, for supplier `supplier`.
 */
export function accountFor(supplier: string, n: number): Obj {
  const a = exampleAccount();
  a.import_supplier = supplier;
  a.external_account_number = `EXT-${String(n).padStart(7, '0')}`;
  const [elec, gas] = a.supply_addresses[0].meter_points;
  elec.identifier = mpanFor(n);
  gas.identifier = mprnFor(n);
  a.references[0].value = `REF${n}`;
  return a;
}

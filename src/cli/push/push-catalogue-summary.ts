/**
 * The summary's catalogue part: the accounts the catalogue refused (decision 0091), grouped by the
 * tariff code concerned. The report names each error's code and `attr`, not the tariff, so the
 * book is read once more for the lines that have such an error: the tariff is the value at the
 * error's `attr` (a `tariff_code`), or the `tariff_code` of the agreement at it (the rules that
 * report at the agreement). Errors whose `attr` leads to no tariff (a supply charge's product or
 * line item) stay in the code-and-field groups only.
 */
import { asKeyPart, asObject, payloadOf } from './push-account-lines.ts';
import { readInputLines } from './push-input.ts';

/** The catalogue's codes that concern an agreement's tariff, with how the terminal says each. */
export const TARIFF_REFUSALS: Readonly<Record<string, string>> = {
  tariff_code_not_found: 'not in the catalogue',
  agreement_effective_from_before_product_available_from: 'agreement starts before the product is available',
  agreement_cannot_start_before_product_available: 'agreement starts before the product is available',
  open_ended_agreement_for_end_dated_product: 'open-ended agreement on an end-dated product',
  tariff_type_does_not_match_meter_type: 'payment method does not match the meter',
  tariff_type_does_not_match_meter_point_type: 'fuel or registers do not match the meter point',
  tariff_region_does_not_match_meter_point: "region is not the meter point's GSP group",
  rate_band_does_not_exist: 'rate override names a band the tariff lacks',
};

/** External account numbers named per tariff. */
const EXAMPLES = 5;

export interface TariffGroup {
  /** Accounts (report lines) refused on this tariff. */
  count: number;
  /** Each code's count of accounts. */
  codes: Record<string, number>;
  /** The first accounts' external numbers, in the book's order. */
  external_account_numbers: string[];
}

/** One report line's refusals the catalogue part needs: where in the book, and which errors. */
export interface CatalogueRefusal {
  line: number;
  ext: string | null;
  errors: Array<{ code: string; attr: string }>;
}

/** The report line's errors that concern a tariff; null when it has none. */
export function catalogueRefusalOf(
  line: number | null,
  ext: string | null,
  errors: unknown[],
): CatalogueRefusal | null {
  if (line === null) return null;
  const found: CatalogueRefusal['errors'] = [];
  for (const e of errors) {
    const code = asObject(e)?.code;
    const attr = asObject(e)?.attr;
    if (typeof code === 'string' && code in TARIFF_REFUSALS && typeof attr === 'string')
      found.push({ code, attr });
  }
  return found.length > 0 ? { line, ext, errors: found } : null;
}

/** The value at a dotted path of an account (`a.0.b`); undefined when it is not there. */
function valueAt(root: unknown, attr: string): unknown {
  let at: unknown = root;
  for (const part of attr.split('.')) {
    if (Array.isArray(at)) at = at[Number(part)];
    else if (asObject(at)) at = (at as Record<string, unknown>)[part];
    else return undefined;
  }
  return at;
}

/** The tariff code an error's `attr` leads to in the account, or null. */
export function tariffAt(account: unknown, attr: string): string | null {
  const value = valueAt(account, attr);
  if (attr.endsWith('tariff_code')) return asKeyPart(value);
  return asKeyPart(asObject(value)?.tariff_code);
}

/**
 * The refusals grouped by tariff (most accounts first), reading the book's lines that have one.
 * An account counts once per tariff, and once per code of that tariff.
 */
export async function groupByTariff(
  bookPath: string,
  refusals: Map<number, CatalogueRefusal>,
): Promise<Record<string, TariffGroup>> {
  const groups = new Map<string, TariffGroup>();
  if (refusals.size === 0) return {};
  for await (const input of readInputLines(bookPath)) {
    const refusal = refusals.get(input.line);
    if (!refusal) continue;
    const account = payloadOf(input.value);
    const codesByTariff = new Map<string, Set<string>>();
    for (const { code, attr } of refusal.errors) {
      const tariff = tariffAt(account, attr);
      if (tariff === null) continue;
      const codes = codesByTariff.get(tariff) ?? new Set<string>();
      codesByTariff.set(tariff, codes);
      codes.add(code);
    }
    for (const [tariff, codes] of codesByTariff) {
      const group = groups.get(tariff) ?? { count: 0, codes: {}, external_account_numbers: [] };
      groups.set(tariff, group);
      group.count++;
      for (const code of codes) group.codes[code] = (group.codes[code] ?? 0) + 1;
      if (refusal.ext !== null && group.external_account_numbers.length < EXAMPLES)
        group.external_account_numbers.push(refusal.ext);
    }
  }
  const sorted = [...groups].sort(([a, ga], [b, gb]) => gb.count - ga.count || a.localeCompare(b));
  return Object.fromEntries(sorted);
}

/** The groups as lines for the terminal ("T: 312 accounts, not in the catalogue"); empty when none. */
export function formatTariffGroups(groups: Record<string, TariffGroup>): string {
  const entries = Object.entries(groups);
  if (entries.length === 0) return '';
  const lines = entries.map(([tariff, g]) => {
    const codes = Object.entries(g.codes);
    const why = codes
      .map(([code, n]) => `${TARIFF_REFUSALS[code] ?? code}${codes.length > 1 ? ` (${n})` : ''}`)
      .join(', ');
    const more = g.count > g.external_account_numbers.length ? ', …' : '';
    return (
      `  ${tariff}: ${g.count} account${g.count === 1 ? '' : 's'}, ${why}` +
      (g.external_account_numbers.length > 0 ? ` — ${g.external_account_numbers.join(', ')}${more}` : '')
    );
  });
  return `Catalogue refusals by tariff code (accounts, why, first accounts):\n${lines.join('\n')}\n`;
}

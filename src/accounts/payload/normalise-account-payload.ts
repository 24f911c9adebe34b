/**
 * The normalisations the reference applies after validation: GB postcodes to `AA9A 9AA` form and
 * company numbers to their eight-character form. The input is never modified: only the objects
 * on the path to a changed value are copied, so large free-form parts are shared, not cloned.
 */
import type { DecimalNumber } from '../../vocabulary/field-types.ts';
import type { AccountPayload } from './account-payload.schema.ts';
import { normaliseGbPostcode } from './addresses/gb-postcode.ts';
import { normaliseCompanyNumber } from './business/company-number.ts';

type Path = Array<string | number>;
type Container = Record<string | number, unknown>;

interface Edit {
  path: Path;
  value: string;
}

export function normaliseAccountPayload(payload: AccountPayload): AccountPayload {
  const edits: Edit[] = [];
  const normalise = (
    value: string | null | undefined,
    path: Path,
    rule: (value: string) => string | null,
  ) => {
    if (typeof value !== 'string' || value === '') return;
    const normalised = rule(value);
    if (normalised !== null && normalised !== value) edits.push({ path, value: normalised });
  };
  normalise(payload.billing_postcode, ['billing_postcode'], normaliseGbPostcode);
  if (payload.billing_address?.country?.toUpperCase() === 'GB') {
    normalise(payload.billing_address.postal_code, ['billing_address', 'postal_code'], normaliseGbPostcode);
  }
  payload.supply_addresses?.forEach((address, i) => {
    normalise(address.supply_postcode, ['supply_addresses', i, 'supply_postcode'], normaliseGbPostcode);
  });
  payload.fit?.installations.forEach((installation, i) => {
    normalise(
      installation.address?.postcode,
      ['fit', 'installations', i, 'address', 'postcode'],
      normaliseGbPostcode,
    );
  });
  normalise(payload.company_number, ['company_number'], normaliseCompanyNumber);
  normalise(payload.business?.company_number, ['business', 'company_number'], normaliseCompanyNumber);
  return edits.length === 0
    ? payload
    : (applyEdits(payload as unknown as Container, edits) as unknown as AccountPayload);
}

/** The payload with each decimal sent as a JSON number replaced by its exact text. */
export function withDecimalTexts(payload: Container, numbers: readonly DecimalNumber[]): Container {
  if (numbers.length === 0) return payload;
  return applyEdits(
    payload,
    numbers.map(({ pointer, text }) => ({
      path: pointer.split('/').slice(1).map(unescapePointer),
      value: text,
    })),
  );
}

const unescapePointer = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');

function applyEdits(root: Container, edits: readonly Edit[]): Container {
  const copies = new WeakSet<object>();
  const copyOf = (node: Container): Container => {
    const copy = (Array.isArray(node) ? [...node] : { ...node }) as Container;
    copies.add(copy);
    return copy;
  };
  const result = copyOf(root);
  for (const { path, value } of edits) {
    let parent = result;
    for (const key of path.slice(0, -1)) {
      let child = parent[key] as Container;
      if (!copies.has(child)) {
        child = copyOf(child);
        parent[key] = child;
      }
      parent = child;
    }
    parent[path[path.length - 1]] = value;
  }
  return result;
}

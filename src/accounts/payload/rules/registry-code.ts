/**
 * Codes that name an entry of a registry we do not hold: tariff and product codes, ledger codes,
 * campaign slugs, dunning paths, reference namespaces, contribution schemes. We can only check
 * their form (docs/product.md, Account payload); whether the entry exists is decided when the
 * account is created.
 *
 * The form: letters and digits, separated by single `-`, `_`, `.` or `:` (`E-1R-VAR-22-11-01-A`,
 * `ELEC-1234-J`, `super_account`, `tentacle-energy.allpay-client-reference-number`). No spaces,
 * no leading, trailing or doubled separators, at most 255 characters.
 */
const REGISTRY_CODE = /^[A-Za-z0-9]+(?:[-_.:][A-Za-z0-9]+)*$/;

export function isRegistryCode(value: string): boolean {
  return value.length <= 255 && REGISTRY_CODE.test(value);
}

/** Tariff codes (`agreements[].tariff_code`) and product codes (`SUPPLY_CHARGE.product_code`). */
export const isTariffOrProductCode = isRegistryCode;

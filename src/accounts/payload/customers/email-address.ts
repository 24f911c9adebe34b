/** E-mail address checks. Syntax follows RFC 5321 limits with a dotted-atom local part. */

const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL_DOMAIN = /^(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})$/;

/** A syntactically valid address: `local@domain.tld`, at most 254 characters. */
export function isEmailAddress(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at > 64) return false;
  if (!LOCAL_PART.test(value.slice(0, at))) return false;
  const labels = value.slice(at + 1).split('.');
  return (
    labels.length >= 2 &&
    labels.every((label) => DOMAIN_LABEL.test(label)) &&
    TOP_LEVEL_DOMAIN.test(labels.at(-1)!)
  );
}

const TEST_PREFIXES = ['test@', 'xxx@'];
const TEST_SUFFIXES = ['@test.com', '@test.co.uk', '.xxx', '.xx'];

/**
 * An address that looks made up for testing (the reference's rule): it starts with `test@` or
 * `xxx@`, or ends with `@test.com`, `@test.co.uk`, `.xxx` or `.xx`.
 */
export function isTestEmailAddress(value: string): boolean {
  const address = value.toLowerCase();
  return (
    TEST_PREFIXES.some((prefix) => address.startsWith(prefix)) ||
    TEST_SUFFIXES.some((s) => address.endsWith(s))
  );
}

/** A `blackhole+` address: a sink that must never be a billing address. */
export function isBlackholeAddress(value: string): boolean {
  return value.toLowerCase().includes('blackhole+');
}

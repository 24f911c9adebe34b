import { Metadata } from 'libphonenumber-js/core';
import { isValidPhoneNumber as isValidForRegion } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';

/** Numbers without a country code are read as GB numbers: the migration region. */
const MIGRATION_REGION = 'GB';

/**
 * A phone number valid for its numbering plan: national GB form (`020 7234 3456`) or any
 * international form (`+44 20 7234 3456`, `+1 …`), checked by libphonenumber-js with its full
 * metadata, so number types (fixed line, mobile, …) are checked, not just lengths.
 */
export function isValidPhoneNumber(value: string): boolean {
  return isPlainValidGbNumber(value) || isValidForRegion(value, MIGRATION_REGION);
}

/*
 * Why a shortcut: libphonenumber-js builds `new RegExp(...)` from multi-kilobyte patterns on
 * every call, ~30 µs per number — most of an account's validation time. The shortcut compiles
 * the same GB patterns from the same metadata once and only ever says "valid" for a plainly
 * written GB number whose national number matches a GB number type the way the library checks
 * it (general pattern, then a type pattern with that type's lengths). Anything else, including
 * every number it rejects, goes to the library, so it can make validation faster but never
 * different. phone-number.test.ts checks the two agree.
 */

interface NumberTypeRule {
  pattern: RegExp;
  lengths: readonly number[];
}

/** The parts of libphonenumber-js's numbering plan object the shortcut reads (not in its typings). */
interface NumberingPlanView {
  nationalNumberPattern(): string;
  possibleLengths(): number[];
  type(name: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}

const NUMBER_TYPES = [
  'FIXED_LINE',
  'MOBILE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'PERSONAL_NUMBER',
  'VOICEMAIL',
  'UAN',
  'PAGER',
  'VOIP',
  'SHARED_COST',
];

/** `07123 456789`, `020-7234-3456`, `+44 7123 456789`: digits, separators, one GB prefix. */
const PLAIN_GB_NUMBER = /^(?:0|\+44)(\d{7,10})$/;
const SEPARATORS = /[\s().-]/g;

let gbRules: { general: RegExp; types: NumberTypeRule[] } | null | undefined;

function compileGbRules(): { general: RegExp; types: NumberTypeRule[] } | null {
  const index = new Metadata(metadata);
  index.selectNumberingPlan(MIGRATION_REGION);
  const plan = index.numberingPlan as unknown as NumberingPlanView | undefined;
  if (typeof plan?.type !== 'function' || typeof plan.nationalNumberPattern !== 'function') return null;
  const types: NumberTypeRule[] = [];
  for (const name of NUMBER_TYPES) {
    const type = plan.type(name);
    if (!type || type.pattern() === '') continue;
    types.push({
      pattern: new RegExp(`^(?:${type.pattern()})$`),
      lengths: type.possibleLengths() ?? plan.possibleLengths(),
    });
  }
  return { general: new RegExp(`^(?:${plan.nationalNumberPattern()})$`), types };
}

function isPlainValidGbNumber(value: string): boolean {
  if (gbRules === undefined) gbRules = compileGbRules();
  if (gbRules === null) return false;
  const match = PLAIN_GB_NUMBER.exec(value.replace(SEPARATORS, ''));
  if (match === null) return false;
  const nationalNumber = match[1];
  if (!gbRules.general.test(nationalNumber)) return false;
  return gbRules.types.some(
    (type) => type.lengths.includes(nationalNumber.length) && type.pattern.test(nationalNumber),
  );
}

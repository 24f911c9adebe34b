/**
 * Account bodies for tests that hold two checkers to the same answers: generated accounts (with
 * decimals as strings, numbers or both), the edits the fuzzer and property tests make, and a body
 * read from its text as the service's parser reads it.
 */
import fc from 'fast-check';
import { parseKeepingNumbers } from '../../src/vocabulary/exact-numbers.ts';
import { mutation } from '../fuzz/fuzz-values.ts';
import { accountParts, buildAccount } from '../property/account-generator.ts';
import { hostileEdits } from '../property/property-run.ts';

/** A body as the service reads it: parsed from its text, numbers a double cannot keep remembered. */
export function readBody(text: string): unknown {
  const kept = parseKeepingNumbers(text, JSON.parse(text));
  return 'value' in kept ? kept.value : null;
}

/** Generated accounts of `supplier`, decimals sent as strings, as JSON numbers, or mixed. */
export const generatedAccount = (supplier: string) =>
  fc
    .tuple(
      accountParts,
      fc.constantFrom('mixed', 'strings', 'numbers') as fc.Arbitrary<'mixed'>,
      fc.nat(999_999),
    )
    .map(([parts, mode, n]) => buildAccount(supplier, n, parts, mode));

/** The fuzzer's and the property tests' edits of a body. */
export const bodyEdits = fc.oneof(hostileEdits, fc.array(mutation, { minLength: 1, maxLength: 3 }));

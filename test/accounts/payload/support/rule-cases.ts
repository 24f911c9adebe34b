/**
 * Table-driven domain rule tests: each case changes the reference example in one way and names
 * the error it must cause (or, for `accepts` cases, that it must stay valid).
 */
import { test } from 'node:test';
import { assertRejects, assertValid, exampleWith } from './payload-fixtures.ts';

export interface RejectCase {
  /** Completes "rejects …": what is wrong with the account. */
  rejects: string;
  changes: Record<string, unknown>;
  attr: string;
  code: string;
}

export interface AcceptCase {
  /** Completes "accepts …". */
  accepts: string;
  changes: Record<string, unknown>;
}

export function ruleCases(cases: ReadonlyArray<RejectCase | AcceptCase>): void {
  for (const rule of cases) {
    if ('rejects' in rule) {
      test(`rejects ${rule.rejects} (${rule.code})`, () =>
        assertRejects(exampleWith(rule.changes), rule.attr, rule.code));
    } else {
      test(`accepts ${rule.accepts}`, () => assertValid(exampleWith(rule.changes)));
    }
  }
}

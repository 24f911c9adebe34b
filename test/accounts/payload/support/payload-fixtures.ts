/**
 * Test helpers for the account payload: fresh copies of the fixtures, dot-path access (the same
 * paths the errors' `attr` use), and assertions on the errors a payload produces.
 */
import assert from 'node:assert/strict';
import { validateAccountPayload } from '../../../../src/accounts/account-checks.ts';
import type { ErrorItem } from '../../../../src/errors/error-items.ts';
import { exampleAccount } from '../../../helpers/account-fixtures.ts';

export type Json = Record<string, unknown>;

/** The date the tests validate on: after every date in the fixtures. */
export const TODAY = '2025-06-01';

export { exampleAccount };

function parent(root: unknown, path: string): { container: Record<string, unknown>; key: string } {
  const keys = path.split('.');
  let node = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  return { container: node, key: keys[keys.length - 1] };
}

export function get(root: unknown, path: string): unknown {
  const { container, key } = parent(root, path);
  return container[key];
}

export function set(root: unknown, path: string, value: unknown): void {
  const { container, key } = parent(root, path);
  container[key] = value;
}

export function remove(root: unknown, path: string): void {
  const { container, key } = parent(root, path);
  if (Array.isArray(container)) container.splice(Number(key), 1);
  else delete container[key];
}

/** Applies `changes` (path → value; undefined removes) to a copy of the example account. */
export function exampleWith(changes: Record<string, unknown>): Json {
  const payload = exampleAccount();
  for (const [path, value] of Object.entries(changes)) {
    if (value === undefined) remove(payload, path);
    else set(payload, path, value);
  }
  return payload;
}

export function errorsOf(payload: unknown, today = TODAY): ErrorItem[] {
  const result = validateAccountPayload(payload, { today });
  return result.ok ? [] : result.errors;
}

const describeErrors = (errors: ErrorItem[]) => errors.map((e) => `${e.attr}: ${e.code}`).join('\n  ');

/** The payload fails with (at least) `code` at `attr`. */
export function assertRejects(payload: unknown, attr: string, code: string, today = TODAY): void {
  const errors = errorsOf(payload, today);
  assert.ok(
    errors.some((e) => e.attr === attr && e.code === code),
    `expected ${attr}: ${code}, got:\n  ${describeErrors(errors) || '(no errors)'}`,
  );
}

/** The payload fails with exactly these attr/code pairs, in any order. */
export function assertErrors(
  payload: unknown,
  expected: Array<[attr: string, code: string]>,
  today = TODAY,
): void {
  const actual = errorsOf(payload, today).map((e) => `${e.attr}: ${e.code}`);
  assert.deepEqual([...actual].sort(), expected.map(([attr, code]) => `${attr}: ${code}`).sort());
}

export function assertValid(payload: unknown, today = TODAY): void {
  const errors = errorsOf(payload, today);
  assert.deepEqual(errors, [], `expected no errors, got:\n  ${describeErrors(errors)}`);
}

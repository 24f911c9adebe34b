import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CheckContext, cleanItems, count, isFilled } from '../../src/validation/check-context.ts';

test('with no structural errors everything is clean', () => {
  const ctx = new CheckContext('2025-06-01');
  assert.equal(ctx.isClean('anything', ''), true);
});

test('a blocked path makes itself, its ancestors and its descendants unclean, but not its siblings', () => {
  const ctx = new CheckContext('2025-06-01', ['customers.0.email']);
  assert.equal(ctx.isClean('customers.0.email'), false);
  assert.equal(ctx.isClean('customers.0'), false);
  assert.equal(ctx.isClean('customers'), false);
  assert.equal(ctx.isClean(''), false);
  assert.equal(ctx.isClean('customers.1'), true);
  assert.equal(ctx.isClean('customers.0.emails'), true, 'a prefix that is not a path segment is unrelated');
});

test('sound means the value itself has its type even if something inside it does not', () => {
  const ctx = new CheckContext('2025-06-01', ['customers.0.email', 'transfer_balance']);
  assert.equal(ctx.isSound('customers'), true);
  assert.equal(ctx.isSound('transfer_balance'), false);
  assert.equal(ctx.isSound('customers.0.email.x'), false);
});

test('clean items skip the unclean ones and anything that is not a list', () => {
  const ctx = new CheckContext('2025-06-01', ['list.1.a']);
  assert.deepEqual(
    [...cleanItems(ctx, ['x', 'y', 'z'], 'list')].map((item) => item.path),
    ['list.0', 'list.2'],
  );
  assert.deepEqual([...cleanItems(ctx, 'not a list' as unknown as string[], 'other')], []);
});

test('filled means a string with something other than spaces; count is 0 for non-lists', () => {
  assert.equal(isFilled(' x '), true);
  assert.equal(isFilled('  '), false);
  assert.equal(isFilled(null), false);
  assert.equal(count([1, 2]), 2);
  assert.equal(count('ab'), 0);
});

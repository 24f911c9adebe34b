import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachConcurrently } from '../../src/infra/concurrency.ts';

describe('forEachConcurrently', () => {
  it('visits every item once with at most `limit` calls in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await forEachConcurrently([...Array(50).keys()], 4, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n % 3));
      seen.push(n);
      inFlight--;
    });
    assert.equal(peak, 4);
    assert.deepEqual(
      seen.sort((a, b) => a - b),
      [...Array(50).keys()],
    );
  });

  it('does nothing for no items', async () => {
    await forEachConcurrently([], 8, async () => assert.fail('called'));
  });
});

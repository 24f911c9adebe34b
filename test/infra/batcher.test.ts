import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { batcher } from '../../src/infra/batcher.ts';

const settled = <O>(values: O[]) => values.map((value) => ({ status: 'fulfilled' as const, value }));

describe('batcher (group commit)', () => {
  it('sends an item at once when idle, and groups what arrives while a batch is in flight', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const submit = batcher(
      async (items: number[]) => {
        batches.push(items);
        if (batches.length === 1) await new Promise<void>((r) => (release = r));
        return settled(items.map((i) => i * 10));
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const first = submit(1);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(batches, [[1]]);
    const rest = [2, 3, 4, 5].map(submit);
    await new Promise((r) => setImmediate(r));
    assert.equal(batches.length, 1, 'nothing more goes while one is in flight');
    release();
    assert.deepEqual(await Promise.all([first, ...rest]), [10, 20, 30, 40, 50]);
    assert.deepEqual(batches, [[1], [2, 3, 4], [5]]);
  });

  it('settles each item with its own outcome; a batch that fails goes again item by item', async () => {
    const batches: number[][] = [];
    const submit = batcher(
      async (items: number[]) => {
        batches.push(items);
        if (items.includes(99)) throw new Error('99 breaks the statement');
        return items.map((i) =>
          i % 2
            ? { status: 'fulfilled' as const, value: i }
            : { status: 'rejected' as const, reason: new Error(`odd only: ${i}`) },
        );
      },
      { maxBatch: 10, maxInFlight: 2 },
    );
    const out = await Promise.allSettled([1, 2, 3].map(submit));
    assert.deepEqual(
      out.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
      [1, 'odd only: 2', 3],
    );
    batches.length = 0;
    const mixed = await Promise.allSettled([5, 99, 7].map(submit));
    assert.deepEqual(
      mixed.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
      [5, '99 breaks the statement', 7],
      'the bad item fails alone',
    );
    assert.deepEqual(batches, [[5, 99, 7], [5], [99], [7]]);
  });

  it('fails the whole batch at once when the failure concerns every item (database unavailable)', async () => {
    const batches: number[][] = [];
    const submit = batcher(
      async (items: number[]) => {
        batches.push(items);
        throw Object.assign(new Error('terminating connection due to administrator command'), {
          code: '57P01',
        });
      },
      { maxBatch: 10, maxInFlight: 1 },
    );
    const down = await Promise.allSettled([1, 2, 3].map(submit));
    assert.deepEqual(
      down.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.deepEqual(batches, [[1, 2, 3]], 'not retried one by one against a database that is down');
  });
});

import { isDbUnavailableError } from './db/db.ts';

type Waiter<I, O> = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };

/**
 * Group commit for independent requests: items submitted while earlier batches are in flight
 * wait and go together in the next one, so under load one statement serves many requests,
 * and with nothing in flight an item goes at once (no added latency when idle).
 * A failure of one request never fails another (docs/product.md, Database stalls): a batch
 * that fails as a whole goes again one item at a time, so each item gets its own outcome,
 * unless the failure concerns them all (`failsAll`; by default the database being unavailable).
 */
export function batcher<I, O>(
  /** Settles every item of a batch: each its own value or error. */
  run: (items: I[]) => Promise<PromiseSettledResult<O>[]>,
  opts: { maxBatch: number; maxInFlight: number; failsAll?: (err: unknown) => boolean },
): (item: I) => Promise<O> {
  const failsAll = opts.failsAll ?? isDbUnavailableError;
  const queue: Waiter<I, O>[] = [];
  let inFlight = 0;

  const settle = async (batch: Waiter<I, O>[]): Promise<void> => {
    let out: PromiseSettledResult<O>[];
    try {
      out = await run(batch.map((b) => b.item));
    } catch (err) {
      if (batch.length === 1 || failsAll(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      await Promise.all(batch.map((b) => settle([b])));
      return;
    }
    batch.forEach((b, i) => {
      const r = out[i];
      if (r.status === 'fulfilled') b.resolve(r.value);
      else b.reject(r.reason);
    });
  };

  const flush = () => {
    while (inFlight < opts.maxInFlight && queue.length > 0) {
      inFlight++;
      settle(queue.splice(0, opts.maxBatch)).finally(() => {
        inFlight--;
        flush();
      });
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      // Let the items of the same tick join before the first statement goes out.
      if (queue.length === 1) queueMicrotask(flush);
    });
}

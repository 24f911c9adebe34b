/**
 * Group commit for independent requests: items submitted while earlier batches are in flight
 * wait and go together in the next one, so under load one statement serves many requests,
 * and with nothing in flight an item goes at once (no added latency when idle).
 */
export function batcher<I, O>(
  /** Settles every item of a batch: each its own value or error. A rejection fails them all. */
  run: (items: I[]) => Promise<PromiseSettledResult<O>[]>,
  opts: { maxBatch: number; maxInFlight: number },
): (item: I) => Promise<O> {
  const queue: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  let inFlight = 0;

  const flush = () => {
    while (inFlight < opts.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, opts.maxBatch);
      inFlight++;
      run(batch.map((b) => b.item))
        .then(
          (out) =>
            batch.forEach((b, i) => {
              const r = out[i];
              if (r.status === 'fulfilled') b.resolve(r.value);
              else b.reject(r.reason);
            }),
          (err) => {
            for (const b of batch) b.reject(err);
          },
        )
        .finally(() => {
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

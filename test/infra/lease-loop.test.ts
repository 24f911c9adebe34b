import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  failureBackoffMs,
  type LeaseLoop,
  type LeaseSource,
  startLeaseLoop,
} from '../../src/infra/lease-loop.ts';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, done: () => boolean, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await wait(5);
  }
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A claim source over a list of batches: each claim takes the next batch, [] once they are gone. */
function fakeSource(batches: number[][], settleRow: (row: number) => Promise<void> = async () => {}) {
  const log: string[] = [];
  const claimedAt: number[] = [];
  const source: LeaseSource<number> & { log: string[]; claimedAt: number[] } = {
    log,
    claimedAt,
    async prepare() {
      log.push('prepare');
    },
    async claim() {
      await new Promise(setImmediate); // as a query would: a busy loop still lets timers run
      claimedAt.push(performance.now());
      const rows = batches.shift() ?? [];
      log.push(`claim ${rows.join(',')}`);
      return rows;
    },
    async settle(rows, signal) {
      for (const row of rows) {
        if (signal.aborted) {
          log.push(`hand back ${row}`);
          continue;
        }
        await settleRow(row);
        log.push(`settle ${row}`);
      }
    },
  };
  return source;
}

const warnings: { obj: Record<string, unknown>; msg: string }[] = [];
const logger = { warn: (obj: Record<string, unknown>, msg: string) => warnings.push({ obj, msg }) };

describe('the lease loop', () => {
  it('claims again as soon as a claim is settled, then backs off while idle', async () => {
    const source = fakeSource([[1, 2], [3], [4, 5]]);
    const rounds: number[] = [];
    const loop = startLeaseLoop(source, {
      name: 'test',
      logger,
      idlePollMs: 60_000,
      onRound: (claimed) => rounds.push(claimed),
    });
    await until('an empty claim', () => source.log.includes('claim '));
    // Three claims with rows, each settled before the next claim, and no wait between them.
    assert.deepEqual(source.log, [
      'prepare',
      'claim 1,2',
      'settle 1',
      'settle 2',
      'prepare',
      'claim 3',
      'settle 3',
      'prepare',
      'claim 4,5',
      'settle 4',
      'settle 5',
      'prepare',
      'claim ',
    ]);
    assert.deepEqual(rounds, [2, 1, 2], 'one round reported per claim that found rows');
    // Idle: the next claim waits the poll interval (a minute here), so none comes meanwhile.
    await wait(100);
    assert.equal(source.claimedAt.length, 4);
    await loop.stop();
  });

  it('claims one lane at a time, while the lanes settle side by side', async () => {
    const batches = [
      [1, 2],
      [3, 4],
    ];
    let claiming = 0;
    let mostClaiming = 0;
    let settling = 0;
    let mostSettling = 0;
    const both = deferred();
    const source: LeaseSource<number> = {
      async claim() {
        mostClaiming = Math.max(mostClaiming, ++claiming);
        await wait(20);
        claiming--;
        return batches.shift() ?? [];
      },
      async settle() {
        mostSettling = Math.max(mostSettling, ++settling);
        if (settling === 2) both.resolve();
        // Serialised lanes would never be two settling: the first gives up waiting after 10 s.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([both.promise, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
        clearTimeout(timer);
        settling--;
      },
    };
    const loop = startLeaseLoop(source, { name: 'test', logger, idlePollMs: 10, lanes: 2 });
    await until('both batches are claimed', () => batches.length === 0);
    await loop.stop();
    assert.equal(mostClaiming, 1, 'never two claims at once');
    assert.equal(mostSettling, 2, 'one lane settles while the other does');
  });

  it('does not claim for a lane stopped while it waited for its turn', async () => {
    const release = deferred();
    let claims = 0;
    const source: LeaseSource<number> = {
      async claim() {
        claims++;
        await release.promise;
        return [];
      },
      async settle() {},
    };
    const loop = startLeaseLoop(source, { name: 'test', logger, idlePollMs: 10, lanes: 2 });
    await until('the first lane is claiming', () => claims === 1);
    await wait(20); // the second lane waits for its turn meanwhile
    const stopping = loop.stop();
    release.resolve();
    await stopping;
    assert.equal(claims, 1);
  });

  it('waits about the idle poll interval between empty claims, jittered', async () => {
    const source = fakeSource([]);
    let r = 0;
    const loop = startLeaseLoop(source, {
      name: 'test',
      logger,
      idlePollMs: 40,
      random: () => [0, 0.999][r++ % 2],
    });
    await until('five claims', () => source.claimedAt.length >= 5);
    await loop.stop();
    const gaps = source.claimedAt.slice(1).map((t, i) => t - source.claimedAt[i]);
    // 0.75 × 40 = 30 ms at the least, whatever the jitter; far fewer claims than a busy loop.
    for (const gap of gaps) assert.ok(gap >= 29, `a gap of ${gap} ms`);
  });

  it('with idlePollMaxMs, doubles the wait after each empty claim in a row; rows or wake() start it again', async () => {
    // Empty claims, then one batch, then empty again: the waits go 20, 40, 80, 160, 160, …
    const batches: number[][] = [[], [], [], [], [], [7]];
    const source = fakeSource(batches);
    const loop = startLeaseLoop(source, {
      name: 'test',
      logger,
      idlePollMs: 20,
      idlePollMaxMs: 160,
      random: () => 0.5, // no jitter: each wait is exactly its nominal length
    });
    await until('the batch and one empty claim after it', () => source.claimedAt.length >= 8, 5_000);
    const gaps = source.claimedAt.slice(1, 8).map((t, i) => Math.round(t - source.claimedAt[i]));
    // Claims 1–5 are empty (waits 20, 40, 80, 160, 160); claim 6 takes the batch and the next
    // claim follows at once; claim 7 is empty again, so the wait starts over at 20.
    const nominal = [20, 40, 80, 160, 160, 0, 20];
    gaps.forEach((gap, i) => {
      assert.ok(
        gap >= nominal[i] - 2 && gap < nominal[i] + 60,
        `gap ${i + 1}: ${gap} ms, about ${nominal[i]} expected (${gaps})`,
      );
    });
    // Long idle, then woken: a claim at once, and the wait after it is the shortest again.
    await wait(400);
    const before = source.claimedAt.length;
    const wokeAt = performance.now();
    loop.wake();
    await until('two claims after the wake', () => source.claimedAt.length >= before + 2, 2_000);
    await loop.stop();
    assert.ok(source.claimedAt[before] - wokeAt < 15, 'claimed at once when woken');
    const after = source.claimedAt[before + 1] - source.claimedAt[before];
    assert.ok(after >= 18 && after < 80, `the wait after the wake: ${after} ms, about 20 expected`);
  });

  it("a claim that finds rows ends the other lanes' idle waits", async () => {
    // Lane 1 finds nothing and would wait a second; lane 2 then finds a batch, without any notice
    // (a window opened, a lease ran out): more may be due, so lane 1 claims now, not a second later.
    // Row 1 takes long to settle, so only the sleeping lane can take batch 2 soon.
    const source = fakeSource([[], [1], [2]], async (row) => {
      await wait(row === 1 ? 1_500 : 0);
    });
    const loop = startLeaseLoop(source, {
      name: 'test',
      logger,
      idlePollMs: 1_000,
      idlePollMaxMs: 8_000,
      lanes: 2,
      random: () => 0.5,
    });
    await until('the second batch claimed', () => source.log.includes('claim 2'), 3_000);
    await loop.stop();
    const gap = source.claimedAt[2] - source.claimedAt[1];
    assert.ok(gap < 200, `the sleeping lane claimed ${Math.round(gap)} ms after the batch was found`);
  });

  it('stops cleanly with work in flight: the row in hand is settled, the rest handed back', async () => {
    const release = deferred();
    const started = deferred();
    const source = fakeSource([[1, 2, 3]], async (row) => {
      if (row === 1) {
        started.resolve();
        await release.promise;
      }
    });
    const loop = startLeaseLoop(source, { name: 'test', logger, idlePollMs: 10 });
    await started.promise;
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await wait(30);
    assert.equal(loop.signal.aborted, true);
    assert.equal(stopped, false, 'stop() waits for the row in hand');
    release.resolve();
    await stopping;
    await loop.stopped;
    assert.deepEqual(source.log, ['prepare', 'claim 1,2,3', 'settle 1', 'hand back 2', 'hand back 3']);
  });

  it('stops at once while idle, without waiting out the poll interval', async () => {
    const source = fakeSource([]);
    const loop = startLeaseLoop(source, { name: 'test', logger, idlePollMs: 60_000, lanes: 2 });
    await until('both lanes claimed', () => source.claimedAt.length === 2);
    const t0 = performance.now();
    await loop.stop();
    assert.ok(performance.now() - t0 < 1_000);
    assert.equal(source.claimedAt.length, 2, 'no claim after stop()');
  });

  it('claims at once when woken while idle, and without waiting when woken during an empty claim', async () => {
    const batches: number[][] = [];
    const source = fakeSource(batches);
    const loop = startLeaseLoop(source, { name: 'test', logger, idlePollMs: 60_000 });
    try {
      await wokenTwice(batches, source, loop);
    } finally {
      await loop.stop();
    }
  });

  async function wokenTwice(batches: number[][], source: ReturnType<typeof fakeSource>, loop: LeaseLoop) {
    await until('an empty claim', () => source.claimedAt.length === 1);
    batches.push([1]);
    loop.wake();
    await until('the woken claim settled', () => source.log.includes('settle 1'));
    await until('idle again', () => source.claimedAt.length === 3);
    // Woken while a claim is under way that finds nothing: the row came too late for that claim.
    const claim = source.claim.bind(source);
    source.claim = async () => {
      const rows = await claim();
      if (rows.length === 0 && !batches.length && !source.log.includes('settle 2')) {
        batches.push([2]);
        loop.wake();
      }
      return rows;
    };
    loop.wake();
    await until('the late row settled', () => source.log.includes('settle 2'), 2_000);
  }

  it('stops at once when stopped during a claim that finds nothing', async () => {
    const claiming = deferred();
    let claims = 0;
    const loop = startLeaseLoop<number>(
      {
        async claim() {
          claims++;
          await claiming.promise;
          return [];
        },
        async settle() {},
      },
      { name: 'test', logger, idlePollMs: 60_000 },
    );
    await until('a claim under way', () => claims === 1);
    const stopping = loop.stop();
    const t0 = performance.now();
    claiming.resolve();
    await stopping;
    assert.ok(performance.now() - t0 < 1_000, `stopped after ${Math.round(performance.now() - t0)} ms`);
  });

  it('survives a throwing claim: logs it, backs off, and claims again', async () => {
    warnings.length = 0;
    const source = fakeSource([[7]]);
    const claim = source.claim.bind(source);
    let failuresLeft = 2;
    source.claim = async () => {
      source.claimedAt.push(performance.now());
      if (failuresLeft-- > 0) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
      return claim();
    };
    const loop = startLeaseLoop(source, {
      name: 'test',
      logger,
      idlePollMs: 10,
      failureBackoff: { baseMs: 40, maxMs: 1_000 },
      random: () => 0,
    });
    await until('the row is settled', () => source.log.includes('settle 7'));
    await loop.stop();
    assert.deepEqual(
      warnings.map((w) => [w.msg, w.obj.transient, w.obj.failures, w.obj.retryInMs]),
      [
        ['test loop error; backing off', true, 1, 20],
        ['test loop error; backing off', true, 2, 40],
      ],
    );
    const [first, second, third] = source.claimedAt;
    assert.ok(second - first >= 19 && third - second >= 39, 'each failure waited its backoff');
  });

  it('survives a throwing settle the same way; the next round starts afresh', async () => {
    warnings.length = 0;
    let once = true;
    const source = fakeSource([[1], [2]], async (row) => {
      if (row === 1 && once) {
        once = false;
        throw new Error('a bug');
      }
    });
    const loop = startLeaseLoop(source, {
      name: 'test',
      logger,
      idlePollMs: 10,
      failureBackoff: { baseMs: 1, maxMs: 1 },
    });
    await until('the next claim is settled', () => source.log.includes('settle 2'));
    await loop.stop();
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].obj.transient, false);
  });

  it('doubles the failure backoff up to its maximum, between half and all of it', () => {
    const b = { baseMs: 500, maxMs: 10_000 };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map((n) => failureBackoffMs(n, b, () => 0)),
      [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000],
    );
    assert.equal(
      failureBackoffMs(3, b, () => 0.999_999),
      2_000 / 2 + (0.999_999 * 2_000) / 2,
    );
  });
});

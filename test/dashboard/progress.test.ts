import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeMinutes, estimate } from '../../src/dashboard/progress.ts';

/** A series of `created` per minute ending in the minute of `now`. */
function series(now: Date, created: number[]) {
  const current = Math.floor(now.getTime() / 60_000) * 60_000;
  return created.map((n, i) => ({
    minute: new Date(current - (created.length - 1 - i) * 60_000).toISOString(),
    created: n,
  }));
}

describe('progress estimate', () => {
  const now = new Date('2026-03-01T10:20:30Z'); // half-way through its minute

  it('draws the rate from the last five minutes over the time they really span', () => {
    // 90 created in 4.5 minutes: 20 a minute; the older minutes do not count.
    const e = estimate({
      perMinute: series(now, [500, 500, 20, 20, 20, 20, 10]),
      remaining: 100,
      paused: false,
      now,
    });
    assert.equal(e.ratePerMinute, 20);
    assert.equal(e.etaMinutes, 5);
    assert.equal(e.eta, 'about 5 min');
  });

  it('is done when nothing waits, paused when the supplier is, and unknown when nothing moves', () => {
    assert.equal(
      estimate({ perMinute: series(now, [0, 0]), remaining: 0, paused: false, now }).eta,
      'done: nothing waiting',
    );
    assert.equal(estimate({ perMinute: series(now, [5, 5]), remaining: 3, paused: true, now }).eta, 'paused');
    const stuck = estimate({ perMinute: series(now, [0, 0, 0, 0, 0]), remaining: 3, paused: false, now });
    assert.equal(stuck.etaMinutes, null);
    assert.match(stuck.eta, /^unknown/);
  });

  it('describes durations from seconds to days', () => {
    assert.equal(describeMinutes(0.2), 'under a minute');
    assert.equal(describeMinutes(42.4), 'about 42 min');
    assert.equal(describeMinutes(150), 'about 2 h 30 min');
    assert.equal(describeMinutes(60 * 24 * 3), 'about 3 days');
  });
});

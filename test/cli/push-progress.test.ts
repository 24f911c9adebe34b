/**
 * What a push's progress says of its speed: nothing until the rate is known (a few lines final
 * over a few seconds gave "ETA 6m" to a push that took 2.7 s), then the rate and ETA; while a
 * supplier is paused, that it waits.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  RATE_MIN_FINISHED,
  RATE_MIN_SECONDS,
  speedOf,
  startProgress,
} from '../../src/cli/push/push-progress.ts';

describe('push progress', () => {
  it('shows no rate or ETA until enough lines are final over enough time', () => {
    const paused: string[] = [];
    // The first bulk answer: 9 lines final after 0.4 s, 1,991 to go.
    assert.equal(speedOf({ finished: 9, seconds: 0.4, remaining: 1991, paused }), null);
    // Many lines, but too soon.
    assert.equal(speedOf({ finished: 1000, seconds: RATE_MIN_SECONDS / 2, remaining: 1000, paused }), null);
    // Long enough, but too few lines.
    assert.equal(speedOf({ finished: RATE_MIN_FINISHED - 1, seconds: 60, remaining: 1000, paused }), null);
    assert.equal(speedOf({ finished: 1000, seconds: 5, remaining: 1000, paused }), '200/s, ETA 5s');
    assert.equal(speedOf({ finished: 600, seconds: 60, remaining: 1190, paused }), '10/s, ETA 1m59s');
  });

  it('says a supplier is paused instead of an ETA', () => {
    assert.equal(
      speedOf({ finished: 1000, seconds: 5, remaining: 1000, paused: ['ACME'] }),
      'supplier ACME paused; waiting for it to be resumed',
    );
  });

  it('says the pause, not a rate or an ETA, on its lines while a supplier is paused', () => {
    let written = '';
    const stream = { isTTY: false, write: (s: string) => (written += s) } as unknown as NodeJS.WriteStream;
    // A rate well known (600 final) before the pause: it would fall, and the ETA grow, while paused.
    const progress = startProgress(
      {
        total: 800,
        counts: () => ({ PROCESSED: 600, SCHEDULED: 200 }),
        final: () => 600,
        finishedThisRun: () => 600,
        paused: () => ['ACME'],
      },
      { stream, label: 'ferry push accounts', intervalMs: 60_000 },
    );
    progress.stop();
    assert.equal(
      written,
      'ferry push accounts: 600/800 final (PROCESSED 600, SCHEDULED 200), supplier ACME paused; waiting for it to be resumed\n',
    );
  });

  it('writes plain lines off a terminal, the speed left out while it is not known', () => {
    let written = '';
    const stream = { isTTY: false, write: (s: string) => (written += s) } as unknown as NodeJS.WriteStream;
    const progress = startProgress(
      {
        total: 2000,
        counts: () => ({ PROCESSED: 7, REJECTED: 2, SCHEDULED: 991 }),
        final: () => 9,
        finishedThisRun: () => 9,
      },
      { stream, label: 'ferry push accounts', intervalMs: 60_000 },
    );
    progress.stop();
    assert.equal(written, 'ferry push accounts: 9/2000 final (PROCESSED 7, REJECTED 2, SCHEDULED 991)\n');
  });
});

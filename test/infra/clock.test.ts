import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localDate } from '../../src/infra/clock.ts';

describe('localDate', () => {
  it('turns the date on the local midnight, whole-hour and half-hour zones alike, in any call order', () => {
    const cases: [string, string, string][] = [
      ['2026-01-01T18:29:59.999Z', 'Asia/Kolkata', '2026-01-01'],
      ['2026-01-01T18:30:00.000Z', 'Asia/Kolkata', '2026-01-02'],
      ['2026-01-01T18:29:30.000Z', 'Asia/Kolkata', '2026-01-01'],
      ['2026-06-30T22:59:59.000Z', 'Europe/London', '2026-06-30'],
      ['2026-06-30T23:00:00.000Z', 'Europe/London', '2026-07-01'],
      ['2026-12-31T23:59:59.000Z', 'Europe/London', '2026-12-31'],
      ['2027-01-01T00:00:00.000Z', 'Europe/London', '2027-01-01'],
      ['2026-06-30T22:59:00.000Z', 'Europe/London', '2026-06-30'],
    ];
    for (const [at, zone, expected] of cases)
      assert.equal(localDate(new Date(at), zone), expected, `${at} ${zone}`);
  });
});

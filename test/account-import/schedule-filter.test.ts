/**
 * Scheduling asks the database about an account's identifiers only when the service's filter of
 * reserved identifiers says one may be held (decision 0097). A filter that has not heard of a
 * reservation yet (another service process took it a moment ago) must not let a conflict through:
 * the reservation's primary key refuses the insert, and the account is checked again without it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ReservationFilter } from '../../src/account-import/reservations/reservation-filter.ts';
import {
  type ScheduleInput,
  scheduleImportProcess,
  scheduleImportProcesses,
} from '../../src/account-import/scheduling/scheduling.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor, mprnFor } from '../helpers/account-fixtures.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const SUPPLIER = 'FILTERED';
const MPRN_ATTR = 'supply_addresses.0.meter_points.1.identifier';

/** A filter that has heard of no reservation at all: every identifier is "certainly free". */
const staleFilter = { mayHoldAny: () => false } as unknown as ReservationFilter;

const processCount = sql(
  '',
  'SELECT count(*)::int AS n FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2',
);

describe('scheduling with the filter of reserved identifiers', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await tokenFor(t.app, [SUPPLIER]); // the supplier exists once a token names it
  });
  after(() => t.close());

  // biome-ignore lint/suspicious/noExplicitAny: the account fixture as JSON
  const inputOf = (n: number, changes: (a: Record<string, any>) => void = () => {}, isDryRun = false) => {
    const payload = accountFor(SUPPLIER, n);
    changes(payload);
    return {
      supplier: SUPPLIER,
      externalAccountNumber: payload.external_account_number,
      payload,
      isDryRun,
      scheduleWindowStart: new Date(),
      scheduleWindowEnd: new Date(Date.now() + 86_400_000),
      explicitWindow: false,
    } satisfies ScheduleInput;
  };
  const taking = (n: number, mprnOf: number) =>
    inputOf(n, (a) => {
      a.supply_addresses[0].meter_points[1].identifier = mprnFor(mprnOf);
    });
  const count = async (external: string) =>
    (await t.db.query<{ n: number }>(processCount, [SUPPLIER, external])).rows[0].n;

  it('refuses an identifier held elsewhere even when the filter says it is free, and writes nothing', async () => {
    assert.deepEqual(await scheduleImportProcess(t.db, inputOf(1)), { kind: 'created' });
    const late = taking(2, 1);
    const outcome = await scheduleImportProcess(t.db, late, { filter: staleFilter });
    assert.equal(outcome.kind, 'conflict');
    assert.deepEqual(outcome.kind === 'conflict' && outcome.errors.map((e) => e.attr), [MPRN_ATTR]);
    assert.equal(await count(late.externalAccountNumber), 0);
  });

  it('looks a dry run up whatever the filter says (it reserves nothing, so no key would refuse it)', async () => {
    const dry = inputOf(3, (a) => {
      a.supply_addresses[0].meter_points[1].identifier = mprnFor(1);
    });
    dry.isDryRun = true;
    const outcome = await scheduleImportProcess(t.db, dry, { filter: staleFilter });
    assert.equal(outcome.kind, 'conflict');
    assert.equal(await count(dry.externalAccountNumber), 0);
  });

  it('still refuses the later of two accounts of one request that share an identifier', async () => {
    const [first, second] = await scheduleImportProcesses(t.db, [taking(4, 40), taking(5, 40)], {
      filter: staleFilter,
    });
    assert.deepEqual(first, { kind: 'created' });
    assert.equal(second.kind, 'conflict');
  });

  it('schedules an account whose identifiers are free without asking about them', async () => {
    assert.deepEqual(await scheduleImportProcess(t.db, inputOf(6), { filter: staleFilter }), {
      kind: 'created',
    });
  });
});

/**
 * The mapping is exact: random accounts (several customers, supply addresses, meter points,
 * meters, registers and readings), flattened into the example export's six files by the profile's
 * inverse (legacy-export-inverse.ts) with their rows shuffled, map back to deep-equal accounts —
 * every field the profile covers. FERRY_MAP_PROPERTY_RUNS sets how many books (default 200).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { mapBook } from '../../src/flat-files/map-book.ts';
import { parseProfile } from '../../src/flat-files/profile.ts';
import { planProfile } from '../../src/flat-files/profile-plan.ts';
import { type Obj, writeExport } from './legacy-export-inverse.ts';

const RUNS = Number(process.env.FERRY_MAP_PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 390_039);
const PROFILE = readFileSync(new URL('../../examples/legacy-export/profile.yaml', import.meta.url), 'utf8');

/** Text windows-1252 can write, with the characters a CSV must quote. */
const unit = fc.constantFrom(...'abcxyzABCXYZ019 éëüßÆ€;"\'-&/\n'.split(''));
const word = fc
  .string({ unit, minLength: 1, maxLength: 10 })
  .map((s) => s.trim())
  .filter((s) => s.length > 0);
const upperWord = word.map((s) => s.toUpperCase());
const lowerWord = word.map((s) => s.toLowerCase());
const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const decimal = fc
  .tuple(fc.boolean(), fc.nat(999_999), fc.option(fc.stringMatching(/^\d{1,3}$/), { nil: undefined }))
  .map(
    ([negative, whole, fraction]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
  );
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const some = <T>(arb: fc.Arbitrary<T>, max: number) => opt(fc.array(arb, { minLength: 1, maxLength: max }));

/** The object without its undefined fields (an absent field is a blank cell, which maps to none). */
function defined(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

const customer = fc
  .record({
    title: opt(word),
    given_name: opt(word),
    family_name: opt(word),
    email: opt(lowerWord),
    mobile: opt(word),
    date_of_birth: opt(isoDate),
  })
  .map(defined);

const meter = fc
  .record({
    installed_on: opt(isoDate),
    gas_number_of_digits: opt(fc.integer({ min: 1, max: 15 })),
    registers: some(
      fc
        .record({ register_id: word, tpr: opt(word), number_of_digits: opt(fc.integer({ min: 1, max: 15 })) })
        .map(defined),
      2,
    ),
    transfer_readings: some(
      fc
        .record({
          register_id: opt(word),
          reading_date: opt(isoDate),
          reading_value: opt(decimal),
          reading_type: opt(fc.constantFrom('CUSTOMER', 'ESTIMATE')),
        })
        .map(defined),
      3,
    ),
  })
  .map(defined);

const meterPoint = fc
  .record({
    supply_type: fc.constantFrom('ELECTRICITY', 'GAS'),
    mpid: opt(word),
    shipper_mpid: opt(word),
    supply_start_date: opt(isoDate),
    profile_class: opt(fc.integer({ min: 1, max: 8 })),
    ssc: opt(word),
    tariff: opt(fc.record({ tariff_code: word, effective_from: opt(isoDate) }).map(defined)),
    usage_from: opt(isoDate),
    aq: opt(decimal),
    eacs: some(fc.record({ tpr: word, consumption: opt(decimal) }).map(defined), 2),
    meters: some(meter, 2),
  })
  .map(({ tariff, usage_from, aq, eacs, meters, ...mp }) =>
    defined({
      ...mp,
      agreements: tariff && [tariff],
      // One usage-from column serves the AQ and every EAC of the row.
      aq_history: aq === undefined ? undefined : [defined({ consumption: aq, effective_from: usage_from })],
      eac_history: eacs?.map((e) => defined({ ...e, effective_from: usage_from })),
      meters: meters?.map((m, k) => ({ meter_serial_number: `S${k}`, ...m })),
    }),
  );

const supplyAddress = fc
  .record({
    supply_address1: opt(word),
    supply_address2: opt(word),
    supply_postcode: opt(upperWord),
    customer_at_supply_address_from_date: opt(isoDate),
    meter_points: some(meterPoint, 3),
  })
  .map(defined);

const account = fc
  .record({
    account_type: opt(fc.constantFrom('DOMESTIC', 'BUSINESS')),
    billing_name: opt(word),
    billing_address1: opt(word),
    billing_address2: opt(word),
    billing_postcode: opt(upperWord),
    last_billed_to_date: opt(isoDate),
    transfer_balance: opt(decimal),
    statement_closed: opt(isoDate),
    customers: some(customer, 3),
    supply_addresses: some(supplyAddress, 2),
  })
  .map(({ statement_closed, ...a }) =>
    defined({
      ...a,
      // The balance column serves the account's transfer balance and its ledger's two balances.
      ledgers:
        statement_closed === undefined
          ? undefined
          : [
              defined({
                last_statement_closing_date: statement_closed,
                last_statement_balance: a.transfer_balance,
                ledger_balance: a.transfer_balance,
              }),
            ],
    }),
  );

/** A book: accounts numbered, meter points given identifiers unique in the book. */
const book = fc.array(account, { minLength: 1, maxLength: 5 }).map((accounts) => {
  let mpxn = 0;
  return accounts.map((a, i) => {
    const numbered: Obj = { import_supplier: 'MERIDIAN', external_account_number: `A${i + 1}`, ...a };
    for (const s of numbered.supply_addresses ?? []) {
      s.meter_points = s.meter_points?.map((mp: Obj) => ({ identifier: `M${++mpxn}`, ...mp }));
      if (s.meter_points === undefined) delete s.meter_points;
    }
    return numbered;
  });
});

describe('the example profile maps its inverse back exactly (property)', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it(`random books of the legacy export map back deep-equal (${RUNS} books)`, async () => {
    await fc.assert(
      fc.asyncProperty(
        book,
        fc.infiniteStream(fc.nat()),
        fc.constantFrom(1 << 30, 300, 60),
        async (accounts, random, bucketBytes) => {
          const dir = mkdtempSync(join(tmpdir(), 'ferry-map-property-'));
          dirs.push(dir);
          const draws = random[Symbol.iterator]();
          writeExport(dir, accounts, (n) => Array.from({ length: n }, () => draws.next().value as number));
          const mapped: Obj[] = [];
          const result = await mapBook(
            planProfile(parseProfile(PROFILE, dir)),
            (m) => void mapped.push(m.account),
            {
              bucketBytes,
            },
          );
          assert.deepEqual(result.problems.lines(), []);
          const byNumber = (list: Obj[]) =>
            Object.fromEntries(list.map((a) => [a.external_account_number, a]));
          assert.deepEqual(byNumber(mapped), byNumber(accounts));
          rmSync(dir, { recursive: true, force: true });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

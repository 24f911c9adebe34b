/**
 * Valid GB account payloads for the property tests: the reference example account (made unique
 * by a number) with its decimals, dates, datetimes, strings and integers generated, optional
 * parts left out, and its balances computed so that they reconcile. The generated value is data
 * (`AccountParts`); `buildAccount` writes it for a supplier and a fresh number at run time, so a
 * shrunk counterexample never collides with an account an earlier run created.
 */
import fc from 'fast-check';
import type { Json } from '../fuzz/fuzz-values.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import {
  asString,
  calendarDate,
  type Dec,
  type DecForm,
  dateBetween,
  dateTime,
  decFromUnits,
  decimal,
  text,
  unitsOf,
  writeDec,
} from './generators.ts';

/** Optional parts of the example account that a payload may leave out. */
const OPTIONAL_PATHS = [
  'customers.0.salutation',
  'customers.0.landline',
  'customers.0.psr',
  'customers.0.customer_preferences',
  'billing_address2',
  'supply_addresses.0.property_administrators',
  'supply_addresses.0.meter_points.0.smart_refusal_interest',
  'supply_addresses.0.meter_points.1.meters.0.prepay_details.gas_debt_repayment_options',
  'payment_schedules.1',
  'notes',
  'warm_home_discount',
  'dunning_path',
  'debts',
  'last_payment_review_date',
  'next_bill_due_date',
  'account_campaigns',
  'metadata',
  'statements',
  'communication_preference',
  'document_accessibility',
] as const;

export interface AccountParts {
  /** Transaction amounts: current 1 (REPAYMENT), 2 (PAYMENT); historical 3 (PAYMENT), 4 (CREDIT). */
  amounts: [Dec, Dec, Dec, Dec];
  /** Forms of the computed balances: last statement, ledger, transfer. */
  balanceForms: [DecForm, DecForm, DecForm];
  readings: [Dec, Dec, Dec, Dec];
  prepay: [Dec, Dec];
  weekly: [Dec, Dec];
  schedules: [Dec, Dec, Dec];
  consumptions: [Dec, Dec, Dec, Dec, Dec];
  debt: Dec;
  currentDates: [string, string];
  historicalDates: [string, string];
  dates: {
    birth: string;
    adminBirth: string;
    refusal: string;
    debtStart: string;
    due: string;
    review: string;
    nextBill: string;
    dunning: string;
  };
  noteCreatedAt: string;
  strings: {
    billingName: string;
    given: string;
    family: string;
    salutation: string;
    noteBody: string;
    agency: string;
    campaignNote: string;
    meta: string;
    reference: string;
  };
  ints: {
    day0: number;
    day1: number;
    cycleDay: number;
    digits0: number;
    digits1: number;
    gasDigits: number;
    profileClass: number;
  };
  absent: string[];
}

const nonZero = (d: fc.Arbitrary<Dec>) => d.map((x) => (unitsOf(x) === 0n ? { ...x, whole: '1' } : x));
const forms = fc.constantFrom<DecForm>('string', 'padded', 'bare-point', 'number');
const day = fc.integer({ min: 1, max: 28 });

export const accountParts: fc.Arbitrary<AccountParts> = fc.record({
  amounts: fc.tuple(decimal(8, 10), decimal(8, 10), decimal(8, 10), decimal(8, 10)),
  balanceForms: fc.tuple(forms, forms, forms),
  readings: fc.tuple(decimal(10, 10), decimal(10, 10), decimal(10, 10), decimal(10, 10)),
  prepay: fc.tuple(decimal(10, 10), decimal(10, 10)),
  weekly: fc.tuple(decimal(10, 10), decimal(10, 10)),
  // Schedule amounts are not zero (zero_payment_schedule_amount).
  schedules: fc.tuple(nonZero(decimal(8, 2)), nonZero(decimal(8, 2)), nonZero(decimal(8, 2))),
  consumptions: fc.tuple(decimal(8, 2), decimal(8, 2), decimal(8, 2), decimal(8, 2), decimal(8, 2)),
  debt: decimal(8, 2),
  currentDates: fc.tuple(dateBetween('2019-08-01', '2020-12-31'), dateBetween('2019-08-01', '2020-12-31')),
  historicalDates: fc.tuple(dateBetween('1990-01-01', '2019-07-31'), dateBetween('1990-01-01', '2019-07-31')),
  dates: fc.record({
    birth: calendarDate(1, 2000),
    adminBirth: calendarDate(1, 2000),
    refusal: calendarDate(1, 2019),
    debtStart: calendarDate(1, 2019),
    due: calendarDate(1, 9999),
    review: calendarDate(1, 2019),
    nextBill: calendarDate(2019, 9999),
    dunning: calendarDate(1, 9999),
  }),
  noteCreatedAt: dateTime(1, 2020),
  strings: fc.record({
    billingName: text(40, 1),
    given: text(40, 1),
    family: text(40, 1),
    salutation: text(20),
    noteBody: text(200, 1),
    agency: text(40, 1),
    campaignNote: text(80),
    meta: text(80),
    reference: text(20),
  }),
  ints: fc.record({
    day0: day,
    day1: day,
    cycleDay: day,
    digits0: fc.integer({ min: 1, max: 15 }),
    digits1: fc.integer({ min: 1, max: 15 }),
    gasDigits: fc.integer({ min: 1, max: 15 }),
    profileClass: fc.integer({ min: 0, max: 8 }),
  }),
  absent: fc.subarray([...OPTIONAL_PATHS]),
});

/** How the decimals are written: as generated, all as strings, or all as JSON numbers. */
export type DecimalMode = 'mixed' | 'strings' | 'numbers';

const byMode = (d: Dec, mode: DecimalMode): Dec =>
  mode === 'strings' ? asString(d) : mode === 'numbers' ? { ...d, form: 'number' } : d;

const sorted = (a: Dec, b: Dec): [Dec, Dec] => (unitsOf(a) <= unitsOf(b) ? [a, b] : [b, a]);

/** The account for `supplier` number `n`, written with the generated parts. */
export function buildAccount(
  supplier: string,
  n: number,
  parts: AccountParts,
  mode: DecimalMode = 'mixed',
): Json {
  const a = accountFor(supplier, n);
  const w = (d: Dec, limits?: { whole: number; fraction: number }) => writeDec(byMode(d, mode), limits);
  const m2 = { whole: 8, fraction: 2 };
  const [a1, a2, a3, a4] = parts.amounts;
  const last = unitsOf(a3) + unitsOf(a4);
  const ledger = last - unitsOf(a1) + unitsOf(a2);
  const [lastForm, ledgerForm, transferForm] = parts.balanceForms;

  const l = a.ledgers[0];
  const [c1, c2] = l.current_statement_transactions;
  const [h3, h4] = l.historical_statement_transactions;
  c1.amount = w(a1);
  c2.amount = w(a2);
  h3.amount = w(a3);
  h4.amount = w(a4);
  [c1.transaction_date, c2.transaction_date] = parts.currentDates;
  [h3.transaction_date, h4.transaction_date] = parts.historicalDates;
  l.last_statement_balance = w(decFromUnits(last, lastForm));
  l.ledger_balance = w(decFromUnits(ledger, ledgerForm));
  a.transfer_balance = w(decFromUnits(ledger, transferForm));

  const [elec, gas] = a.supply_addresses[0].meter_points;
  const meter = elec.meters[0];
  meter.transfer_readings[0].reading_value = w(parts.readings[0]);
  meter.reading_history[0].reading_value = w(parts.readings[1]);
  meter.reading_history[1].reading_value = w(parts.readings[2]);
  meter.registers[0].number_of_digits = parts.ints.digits0;
  meter.registers[1].number_of_digits = parts.ints.digits1;
  elec.profile_class = parts.ints.profileClass;
  elec.smart_refusal_interest.date = parts.dates.refusal;
  elec.eac_history[0].consumption = w(parts.consumptions[0], m2);
  elec.eac_history[1].consumption = w(parts.consumptions[1], m2);
  const gasMeter = gas.meters[0];
  gasMeter.gas_number_of_digits = parts.ints.gasDigits;
  gasMeter.transfer_readings[0].reading_value = w(parts.readings[3]);
  gasMeter.prepay_details.debt_balance = w(parts.prepay[0]);
  gasMeter.prepay_details.credit_balance = w(parts.prepay[1]);
  const [min, max] = sorted(...parts.weekly);
  gasMeter.prepay_details.gas_debt_repayment_options = { weekly_min: w(min), weekly_max: w(max) };
  gas.aq_history.forEach((aq: Json, i: number) => {
    aq.consumption = w(parts.consumptions[2 + i], m2);
  });

  const customer = a.customers[0];
  customer.given_name = parts.strings.given;
  customer.family_name = parts.strings.family;
  customer.salutation = parts.strings.salutation;
  customer.date_of_birth = parts.dates.birth;
  a.supply_addresses[0].property_administrators[0].date_of_birth = parts.dates.adminBirth;
  a.billing_name = parts.strings.billingName;

  const [elementOf, amount0] = sorted(parts.schedules[0], parts.schedules[1]);
  a.payment_schedules[0].amount = w(amount0, m2);
  a.payment_schedules[0].debt_repayment_element = w(elementOf, m2);
  a.payment_schedules[0].day_of_month = parts.ints.day0;
  a.payment_schedules[1].amount = w(parts.schedules[2], m2);
  a.payment_schedules[1].day_of_month = parts.ints.day1;
  a.smart_read_cycle_day = parts.ints.cycleDay;

  a.references[0].value = `${a.references[0].value}${parts.strings.reference}`.slice(0, 100);
  a.notes[0].created_at = parts.noteCreatedAt;
  a.notes[0].body = parts.strings.noteBody;
  a.debts[0].agency_name = parts.strings.agency;
  a.debts[0].start_date = parts.dates.debtStart;
  a.debts[0].aged_debt[0].debt_amount = w(parts.debt, m2);
  a.debts[0].aged_debt[0].due_date = parts.dates.due;
  a.last_payment_review_date = parts.dates.review;
  a.next_bill_due_date = parts.dates.nextBill;
  a.dunning_path.start_date = parts.dates.dunning;
  a.account_campaigns[0].campaign_note = parts.strings.campaignNote;
  a.metadata[0].value = { some_data: parts.strings.meta, amount: w(parts.amounts[0]) };

  for (const path of [...parts.absent].reverse()) {
    const keys = path.split('.');
    let node = a;
    for (const k of keys.slice(0, -1)) node = node[k];
    const last = keys[keys.length - 1];
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  }
  return a;
}

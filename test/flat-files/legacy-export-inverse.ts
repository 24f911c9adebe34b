/**
 * The inverse of examples/legacy-export/profile.yaml, as test code: accounts (of the fields the
 * profile covers) flattened into the six CSV files the profile reads — windows-1252, semicolons,
 * decimal commas, day-first dates, register and EAC column groups — with the rows of each file in
 * a random order that keeps each parent's children in theirs. Mapping the files back must give the
 * accounts again.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';

// biome-ignore lint/suspicious/noExplicitAny: generated JSON
export type Obj = Record<string, any>;

/** Each file's header: also what the mapping benchmark (bench/map.ts) generates its export with. */
export const HEADERS = {
  'ACCOUNTS.CSV': [
    'ACCOUNT_NO',
    'ACCOUNT_KIND',
    'BILL_NAME',
    'BILL_ADDR_1',
    'BILL_ADDR_2',
    'BILL_POSTCODE',
    'LAST_BILLED',
    'BALANCE',
    'STATEMENT_DATE',
  ],
  'CUSTOMERS.CSV': ['ACCOUNT_NO', 'TITLE', 'FIRST_NAME', 'SURNAME', 'EMAIL', 'MOBILE', 'BIRTH_DATE'],
  'PREMISES.CSV': ['PREMISE_ID', 'ACCOUNT_NO', 'ADDR_1', 'ADDR_2', 'POSTCODE', 'MOVED_IN'],
  'METER_POINTS.CSV': [
    'MPXN',
    'PREMISE_ID',
    'FUEL',
    'SUPPLIER_ID',
    'SHIPPER',
    'SUPPLY_START',
    'PROFILE_CLASS',
    'SSC',
    'TARIFF',
    'TARIFF_FROM',
    'AQ_KWH',
    'EAC_1_TPR',
    'EAC_1_KWH',
    'EAC_2_TPR',
    'EAC_2_KWH',
    'USAGE_FROM',
  ],
  'METERS.CSV': [
    'MPXN',
    'SERIAL',
    'INSTALLED',
    'GAS_DIGITS',
    'REG_1_ID',
    'REG_1_TPR',
    'REG_1_DIGITS',
    'REG_2_ID',
    'REG_2_TPR',
    'REG_2_DIGITS',
  ],
  'READINGS.CSV': ['MPXN', 'SERIAL', 'REGISTER', 'READ_DATE', 'READING', 'READ_TYPE'],
} as const;

export type FileName = keyof typeof HEADERS;

const date = (iso: string | undefined) =>
  iso === undefined ? '' : `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const decimal = (text: string | undefined) => (text === undefined ? '' : text.replace('.', ','));
const text = (value: unknown) => (value === undefined ? '' : String(value));
const ACCOUNT_KINDS: Obj = { DOMESTIC: 'DOM', BUSINESS: 'BUS' };
const FUELS: Obj = { ELECTRICITY: 'E', GAS: 'G' };
const READ_TYPES: Obj = { CUSTOMER: 'C', ESTIMATE: 'E' };

function csvCell(value: string): string {
  return /[;"\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A row of a file, with the group of siblings it belongs to and its place among them. */
interface Row {
  cells: string[];
  siblings: string;
  order: number;
}

/** The rows of each file, flattened from `accounts`; premise ids are made up (P1, P2, …). */
export function flatten(accounts: Obj[]): Record<FileName, Row[]> {
  const files = Object.fromEntries(Object.keys(HEADERS).map((f) => [f, [] as Row[]])) as Record<
    FileName,
    Row[]
  >;
  const add = (file: FileName, siblings: string, order: number, cells: string[]) =>
    files[file].push({ cells, siblings, order });
  let premise = 0;
  for (const a of accounts) {
    const no = a.external_account_number;
    const ledger = a.ledgers?.[0];
    add('ACCOUNTS.CSV', '', 0, [
      no,
      ACCOUNT_KINDS[a.account_type] ?? '',
      text(a.billing_name),
      text(a.billing_address1),
      text(a.billing_address2),
      text(a.billing_postcode),
      date(a.last_billed_to_date),
      decimal(a.transfer_balance),
      date(ledger?.last_statement_closing_date),
    ]);
    (a.customers ?? []).forEach((c: Obj, i: number) => {
      add('CUSTOMERS.CSV', no, i, [
        no,
        text(c.title),
        text(c.given_name),
        text(c.family_name),
        text(c.email),
        text(c.mobile),
        date(c.date_of_birth),
      ]);
    });
    (a.supply_addresses ?? []).forEach((s: Obj, i: number) => {
      const pid = `P${++premise}`;
      add('PREMISES.CSV', no, i, [
        pid,
        no,
        text(s.supply_address1),
        text(s.supply_address2),
        text(s.supply_postcode),
        date(s.customer_at_supply_address_from_date),
      ]);
      (s.meter_points ?? []).forEach((mp: Obj, j: number) => {
        const eac = mp.eac_history ?? [];
        const usageFrom = mp.aq_history?.[0]?.effective_from ?? eac[0]?.effective_from;
        add('METER_POINTS.CSV', pid, j, [
          mp.identifier,
          pid,
          FUELS[mp.supply_type],
          text(mp.mpid),
          text(mp.shipper_mpid),
          date(mp.supply_start_date),
          text(mp.profile_class),
          text(mp.ssc),
          text(mp.agreements?.[0]?.tariff_code),
          date(mp.agreements?.[0]?.effective_from),
          decimal(mp.aq_history?.[0]?.consumption),
          text(eac[0]?.tpr),
          decimal(eac[0]?.consumption),
          text(eac[1]?.tpr),
          decimal(eac[1]?.consumption),
          date(usageFrom),
        ]);
        (mp.meters ?? []).forEach((m: Obj, k: number) => {
          const r = m.registers ?? [];
          add('METERS.CSV', mp.identifier, k, [
            mp.identifier,
            m.meter_serial_number,
            date(m.installed_on),
            text(m.gas_number_of_digits),
            text(r[0]?.register_id),
            text(r[0]?.tpr),
            text(r[0]?.number_of_digits),
            text(r[1]?.register_id),
            text(r[1]?.tpr),
            text(r[1]?.number_of_digits),
          ]);
          (m.transfer_readings ?? []).forEach((t: Obj, l: number) => {
            add('READINGS.CSV', `${mp.identifier}/${m.meter_serial_number}`, l, [
              mp.identifier,
              m.meter_serial_number,
              text(t.register_id),
              date(t.reading_date),
              decimal(t.reading_value),
              READ_TYPES[t.reading_type] ?? '',
            ]);
          });
        });
      });
    });
  }
  return files;
}

/**
 * Writes the files into `dir`, each file's rows in the order `shuffle` gives them (a number per
 * row), except that siblings keep their order: the order of an array is the order of its rows.
 */
export function writeExport(dir: string, accounts: Obj[], shuffle: (n: number) => number[]) {
  for (const [file, rows] of Object.entries(flatten(accounts)) as [FileName, Row[]][]) {
    const keys = shuffle(rows.length);
    // Each group of siblings takes its own rows' random places, in sibling order.
    const groups = new Map<string, number[]>();
    rows.forEach((row, i) => {
      groups.set(row.siblings, [...(groups.get(row.siblings) ?? []), i]);
    });
    const placed: { key: number; row: Row }[] = [];
    for (const members of groups.values()) {
      const places = members.map((i) => keys[i]).sort((x, y) => x - y);
      const inOrder = [...members].sort((x, y) => rows[x].order - rows[y].order);
      inOrder.forEach((i, k) => {
        placed.push({ key: places[k], row: rows[i] });
      });
    }
    placed.sort((x, y) => x.key - y.key);
    const lines = [HEADERS[file].join(';'), ...placed.map((p) => p.row.cells.map(csvCell).join(';'))];
    writeFileSync(join(dir, file), iconv.encode(`${lines.join('\r\n')}\r\n`, 'windows-1252'));
  }
}

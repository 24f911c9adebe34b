/**
 * Flattens a validated account payload into the rows of the relational account tables.
 * Pure: ids are handed in (pre-allocated from the sequences), so one statement can insert
 * every table at once. Each row keeps the fields it does not map to columns in `attributes`.
 */

import { addDays } from '../vocabulary/calendar-date.ts';

// biome-ignore lint/suspicious/noExplicitAny: the payload was validated against its schema upstream
type Obj = Record<string, any>;

const omit = (o: Obj, keys: string[]): Obj => {
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
};

const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export interface IdCounts {
  supplyAddresses: number;
  meterPoints: number;
  meters: number;
  ledgers: number;
}

export function countIds(payload: Obj): IdCounts {
  const sas = list(payload.supply_addresses);
  const mps = sas.flatMap((sa) => list(sa.meter_points));
  return {
    supplyAddresses: sas.length,
    meterPoints: mps.length,
    meters: mps.reduce((n, mp) => n + list(mp.meters).length, 0),
    ledgers: list(payload.ledgers).length,
  };
}

export interface AccountIds {
  accountId: string;
  supplyAddresses: string[];
  meterPoints: string[];
  meters: string[];
  ledgers: string[];
}

const READING_FIELDS = ['register_id', 'reading_date', 'reading_value', 'reading_type'];
const TXN_FIELDS = ['transaction_id', 'transaction_date', 'amount', 'type', 'reason'];

function billingAddress(p: Obj, accountId: string): Obj[] {
  if (p.billing_address) {
    const a = p.billing_address as Obj;
    return [
      {
        account_id: accountId,
        name: p.billing_name ?? a.name ?? null,
        address_lines: [
          a.street_address ?? '',
          a.dependent_locality ?? '',
          a.locality ?? '',
          a.administrative_area ?? '',
        ],
        postcode: a.postal_code ?? null,
        attributes: omit(a, [
          'street_address',
          'dependent_locality',
          'locality',
          'administrative_area',
          'postal_code',
        ]),
      },
    ];
  }
  if (p.billing_address1 === undefined && p.billing_postcode === undefined) return [];
  return [
    {
      account_id: accountId,
      name: p.billing_name ?? null,
      address_lines: [1, 2, 3, 4, 5].map((i) => p[`billing_address${i}`] ?? ''),
      postcode: p.billing_postcode ?? null,
      attributes: {},
    },
  ];
}

function transactionRows(accountId: string, ledgerId: string | null, holder: Obj): Obj[] {
  const rows: Obj[] = [];
  for (const [key, statement] of [
    ['historical_statement_transactions', 'historical'],
    ['current_statement_transactions', 'current'],
  ] as const) {
    for (const t of list(holder[key])) {
      rows.push({
        account_id: accountId,
        ledger_id: ledgerId,
        transaction_id: String(t.transaction_id),
        statement,
        transaction_date: t.transaction_date,
        amount: String(t.amount),
        type: t.type,
        reason: t.reason ?? null,
        data: omit(t, TXN_FIELDS),
      });
    }
  }
  return rows;
}

export interface AccountRows {
  account_customers: Obj[];
  billing_addresses: Obj[];
  supply_addresses: Obj[];
  meter_points: Obj[];
  agreements: Obj[];
  meters: Obj[];
  registers: Obj[];
  readings: Obj[];
  ledgers: Obj[];
  transactions: Obj[];
  statements: Obj[];
  notes: Obj[];
  payment_schedules: Obj[];
  account_references: Obj[];
  account_metadata: Obj[];
}

export function accountRows(p: Obj, ids: AccountIds, now: Date): AccountRows {
  const accountId = ids.accountId;
  const rows: AccountRows = {
    account_customers: list(p.customers).map((c, position) => ({
      account_id: accountId,
      position,
      given_name: c.given_name ?? null,
      family_name: c.family_name ?? null,
      email: c.email ?? null,
      mobile: c.mobile ?? null,
      landline: c.landline ?? null,
      date_of_birth: c.date_of_birth ?? null,
      attributes: omit(c, ['given_name', 'family_name', 'email', 'mobile', 'landline', 'date_of_birth']),
    })),
    billing_addresses: billingAddress(p, accountId),
    supply_addresses: [],
    meter_points: [],
    agreements: [],
    meters: [],
    registers: [],
    readings: [],
    ledgers: [],
    transactions: transactionRows(accountId, null, p),
    statements: list(p.statements).map((s) => ({
      account_id: accountId,
      statement_id: String(s.statement_id),
      bill_period_from_date: s.bill_period_from_date,
      bill_period_to_date: s.bill_period_to_date,
      issued_date: s.issued_date ?? null,
      statement_path: s.statement_path ?? null,
      data: omit(s, [
        'statement_id',
        'bill_period_from_date',
        'bill_period_to_date',
        'issued_date',
        'statement_path',
      ]),
    })),
    notes: list(p.notes).map((n) => ({
      account_id: accountId,
      body: n.body ?? '',
      document_paths: list(n.document_paths).map((d) => d.document_path),
      created_at: n.created_at ?? now.toISOString(),
      external_id: n.external_id ?? null,
      is_archived: n.is_archived ?? false,
      is_pinned: n.is_pinned ?? false,
      unpin_at: n.unpin_at ?? null,
    })),
    payment_schedules: list(p.payment_schedules).map((s) => ({
      account_id: accountId,
      amount: s.amount === undefined ? null : String(s.amount),
      start_date: s.start_date ?? null,
      attributes: omit(s, ['amount', 'start_date']),
    })),
    account_references: list(p.references).map((r) => ({
      account_id: accountId,
      namespace: r.namespace,
      value: r.value,
    })),
    account_metadata: list(p.metadata).map((m) => ({
      account_id: accountId,
      key: m.key,
      value: m.value ?? null,
    })),
  };

  let mpIndex = 0;
  let meterIndex = 0;
  list(p.supply_addresses).forEach((sa, saIndex) => {
    const saId = ids.supplyAddresses[saIndex];
    rows.supply_addresses.push({
      id: saId,
      account_id: accountId,
      position: saIndex,
      address_lines: [1, 2, 3, 4, 5].map((i) => sa[`supply_address${i}`] ?? ''),
      postcode: sa.supply_postcode ?? null,
      attributes: omit(sa, [
        'meter_points',
        'supply_address1',
        'supply_address2',
        'supply_address3',
        'supply_address4',
        'supply_address5',
        'supply_postcode',
      ]),
    });
    for (const mp of list(sa.meter_points)) {
      const mpId = ids.meterPoints[mpIndex++];
      rows.meter_points.push({
        id: mpId,
        account_id: accountId,
        supply_address_id: saId,
        identifier: String(mp.identifier),
        supply_type: mp.supply_type,
        supply_start_date: mp.supply_start_date ?? null,
        attributes: omit(mp, ['identifier', 'supply_type', 'supply_start_date', 'agreements', 'meters']),
      });
      for (const a of list(mp.agreements)) {
        rows.agreements.push({
          meter_point_id: mpId,
          tariff_code: a.tariff_code ?? null,
          effective_from: a.effective_from ?? null,
          effective_to: a.effective_to ?? null,
          attributes: omit(a, ['tariff_code', 'effective_from', 'effective_to']),
        });
      }
      for (const m of list(mp.meters)) {
        const meterId = ids.meters[meterIndex++];
        rows.meters.push({
          id: meterId,
          meter_point_id: mpId,
          serial_number: String(m.meter_serial_number ?? ''),
          attributes: omit(m, ['meter_serial_number', 'registers', 'transfer_readings', 'reading_history']),
        });
        for (const r of list(m.registers)) {
          rows.registers.push({
            meter_id: meterId,
            register_id: String(r.register_id ?? ''),
            attributes: omit(r, ['register_id']),
          });
        }
        for (const [key, kind] of [
          ['transfer_readings', 'transfer'],
          ['reading_history', 'history'],
        ] as const) {
          for (const r of list(m[key])) {
            rows.readings.push({
              meter_id: meterId,
              kind,
              register_id: r.register_id ?? null,
              reading_date: r.reading_date,
              reading_value: String(r.reading_value),
              reading_type: r.reading_type ?? null,
              attributes: omit(r, READING_FIELDS),
            });
          }
        }
      }
    }
  });

  list(p.ledgers).forEach((l, position) => {
    const ledgerId = ids.ledgers[position];
    rows.ledgers.push({
      id: ledgerId,
      account_id: accountId,
      position,
      ledger_balance: l.ledger_balance === undefined ? null : String(l.ledger_balance),
      last_statement_closing_date: l.last_statement_closing_date ?? null,
      last_statement_balance:
        l.last_statement_balance === undefined ? null : String(l.last_statement_balance),
      attributes: omit(l, [
        'ledger_balance',
        'last_statement_closing_date',
        'last_statement_balance',
        'current_statement_transactions',
        'historical_statement_transactions',
      ]),
    });
    rows.transactions.push(...transactionRows(accountId, ledgerId, l));
  });
  return rows;
}

/**
 * The open statement starts the day after the first ledger's last statement closing date,
 * else the day after the last billed-to date, else on the account's creation date.
 */
export function openStatementStart(p: Obj, creationDate: string): string {
  const closing = list(p.ledgers)[0]?.last_statement_closing_date ?? p.last_statement_closing_date;
  if (closing) return addDays(closing, 1);
  if (p.last_billed_to_date) return addDays(p.last_billed_to_date, 1);
  return creationDate;
}

/** The account's opening balance: the first ledger's balance, else the transfer balance. */
export function openingBalance(p: Obj): string {
  const v = list(p.ledgers)[0]?.ledger_balance ?? p.transfer_balance;
  return v === undefined || v === null ? '0' : String(v);
}

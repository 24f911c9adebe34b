/**
 * Reads back what the service stored and says where it differs from what was sent: the stored
 * payloads (compared as lossless JSON) and the relational columns (ledger and statement
 * balances, transaction amounts and dates, readings, customers, notes, schedules, references,
 * metadata). Decimals compare digit for digit as normalised decimal strings, datetimes as exact
 * instants (nanoseconds), dates as text. Each function returns difference lines; [] is "stored
 * exactly".
 */
import { type Db, sql } from '../../src/infra/db/db.ts';
import {
  decimalOf,
  JsonNumber,
  jsonDifferences,
  type LosslessJson,
  parseLossless,
} from '../helpers/json-text.ts';
import { epochOf } from './generators.ts';

// biome-ignore lint/suspicious/noExplicitAny: lossless JSON trees are walked loosely
type Node = any;

const list = (v: Node): Node[] => (Array.isArray(v) ? v : []);
const str = (v: Node): string | null =>
  v === undefined || v === null ? null : v instanceof JsonNumber ? v.text : String(v);
const dec = (v: Node): string | null =>
  v === undefined || v === null ? null : (decimalOf(v) ?? `not a decimal: ${str(v)}`);
const instant = (v: Node): string | null => {
  if (typeof v !== 'string') return null;
  try {
    return decimalOf(epochOf(v));
  } catch {
    return `not a datetime: ${v}`;
  }
};

/** Sorted-multiset comparison of rows rendered as strings. */
export function multisetDifferences(label: string, expected: string[], stored: string[]): string[] {
  const left = new Map<string, number>();
  for (const e of expected) left.set(e, (left.get(e) ?? 0) + 1);
  const extra: string[] = [];
  for (const s of stored) {
    const n = left.get(s) ?? 0;
    if (n > 0) left.set(s, n - 1);
    else extra.push(s);
  }
  const missing = [...left.entries()].flatMap(([k, n]) => Array<string>(n).fill(k));
  if (missing.length === 0 && extra.length === 0) return [];
  return [`${label}: sent ${JSON.stringify(missing.sort())}, stored ${JSON.stringify(extra.sort())}`];
}

const row = (...cells: (string | null)[]) => cells.map((c) => (c === null ? '∅' : c)).join(' | ');

const q = (name: string, text: string) => sql(name, text);

const ACCOUNT = q(
  'propAccount',
  `SELECT a.id, a.billing_name, a.account_type, a.balance::text AS balance,
          a.last_billed_to_date::text AS last_billed_to_date, p.payload::text AS process_payload
     FROM accounts a JOIN import_processes p ON p.id = a.import_process_id
    WHERE a.import_supplier = $1 AND a.external_account_number = $2`,
);
const CUSTOMERS = q(
  'propCustomers',
  `SELECT given_name, family_name, email, mobile, landline, date_of_birth::text AS date_of_birth
     FROM account_customers WHERE account_id = $1 ORDER BY position`,
);
const LEDGERS = q(
  'propLedgers',
  `SELECT ledger_balance::text AS ledger_balance, last_statement_balance::text AS last_statement_balance,
          last_statement_closing_date::text AS closing FROM ledgers WHERE account_id = $1 ORDER BY position`,
);
const TRANSACTIONS = q(
  'propTransactions',
  `SELECT transaction_id, statement, transaction_date::text AS transaction_date, amount::text AS amount, type, reason, data::text AS data
     FROM transactions WHERE account_id = $1`,
);
const READINGS = q(
  'propReadings',
  `SELECT m.serial_number, r.kind, r.register_id, r.reading_date::text AS reading_date,
          r.reading_value::text AS reading_value, r.reading_type
     FROM readings r JOIN meters m ON m.id = r.meter_id JOIN meter_points mp ON mp.id = m.meter_point_id
    WHERE mp.account_id = $1`,
);
const METER_POINTS = q(
  'propMeterPoints',
  `SELECT identifier, supply_type, supply_start_date::text AS supply_start_date FROM meter_points WHERE account_id = $1`,
);
const SCHEDULES = q(
  'propSchedules',
  `SELECT amount::text AS amount, start_date::text AS start_date FROM payment_schedules WHERE account_id = $1`,
);
const NOTES = q(
  'propNotes',
  `SELECT id, body, extract(epoch FROM created_at)::text AS created_at, is_pinned,
          extract(epoch FROM unpin_at)::text AS unpin_at, document_paths FROM notes WHERE account_id = $1 ORDER BY id`,
);
const REFERENCES = q(
  'propReferences',
  'SELECT namespace, value FROM account_references WHERE account_id = $1',
);
const METADATA = q(
  'propMetadata',
  'SELECT key, value::text AS value FROM account_metadata WHERE account_id = $1',
);
const STATEMENTS = q(
  'propStatements',
  `SELECT statement_id, bill_period_from_date::text AS from_date, bill_period_to_date::text AS to_date,
          issued_date::text AS issued_date, statement_path, data::text AS data FROM statements WHERE account_id = $1`,
);

type Rows = Record<string, Node>[];
const rows = async (db: Db, query: ReturnType<typeof sql>, params: unknown[]): Promise<Rows> =>
  (await db.query<Record<string, Node>>(query, params)).rows;

/** The account payload inside a create body (bare or wrapped). */
export function payloadOf(body: LosslessJson): Node {
  const b = body as Node;
  return b && typeof b === 'object' && !Array.isArray(b) && b.payload !== undefined ? b.payload : b;
}

const transactionRow = (t: Node, statement: string) =>
  row(str(t.transaction_id), statement, str(t.transaction_date), dec(t.amount), str(t.type), str(t.reason));

/** Where the created account differs from the account payload sent in `bodyText`. */
export async function accountDifferences(
  db: Db,
  supplier: string,
  external: string,
  bodyText: string,
): Promise<string[]> {
  const p = payloadOf(parseLossless(bodyText));
  const [a] = await rows(db, ACCOUNT, [supplier, external]);
  if (!a) return [`no account ${supplier}/${external} was created`];
  const out: string[] = [
    // The account's payload is kept on its process only (migration 0029).
    ...jsonDifferences(p, parseLossless(a.process_payload)).map((d) => `import_processes.payload ${d}`),
  ];
  const firstLedger = list(p.ledgers)[0];
  const opening = firstLedger?.ledger_balance ?? p.transfer_balance;
  out.push(
    ...multisetDifferences(
      'accounts',
      [
        row(
          str(p.billing_name),
          str(p.account_type),
          opening === undefined ? '0' : dec(opening),
          str(p.last_billed_to_date),
        ),
      ],
      [row(a.billing_name, a.account_type, dec(a.balance), a.last_billed_to_date)],
    ),
  );
  const id = a.id;
  const customers = list(p.customers).map((c) =>
    row(
      str(c.given_name),
      str(c.family_name),
      str(c.email),
      str(c.mobile),
      str(c.landline),
      str(c.date_of_birth),
    ),
  );
  const storedCustomers = (await rows(db, CUSTOMERS, [id])).map((c) =>
    row(c.given_name, c.family_name, c.email, c.mobile, c.landline, c.date_of_birth),
  );
  out.push(...multisetDifferences('account_customers', customers, storedCustomers));
  out.push(
    ...multisetDifferences(
      'ledgers',
      list(p.ledgers).map((l) =>
        row(dec(l.ledger_balance), dec(l.last_statement_balance), str(l.last_statement_closing_date)),
      ),
      (await rows(db, LEDGERS, [id])).map((l) =>
        row(dec(l.ledger_balance), dec(l.last_statement_balance), l.closing),
      ),
    ),
  );
  const holders = [p, ...list(p.ledgers)];
  const sentTransactions = holders.flatMap((h) => [
    ...list(h.historical_statement_transactions).map((t) => transactionRow(t, 'historical')),
    ...list(h.current_statement_transactions).map((t) => transactionRow(t, 'current')),
  ]);
  const storedTransactions = (await rows(db, TRANSACTIONS, [id])).map((t) =>
    row(t.transaction_id, t.statement, t.transaction_date, dec(t.amount), t.type, t.reason),
  );
  out.push(...multisetDifferences('transactions', sentTransactions, storedTransactions));
  const points = list(p.supply_addresses).flatMap((sa) => list(sa.meter_points));
  out.push(
    ...multisetDifferences(
      'meter_points',
      points.map((mp) => row(str(mp.identifier), str(mp.supply_type), str(mp.supply_start_date))),
      (await rows(db, METER_POINTS, [id])).map((mp) =>
        row(mp.identifier, mp.supply_type, mp.supply_start_date),
      ),
    ),
  );
  const readings = points.flatMap((mp) =>
    list(mp.meters).flatMap((m) =>
      (['transfer_readings', 'reading_history'] as const).flatMap((key) =>
        list(m[key]).map((r) =>
          row(
            str(m.meter_serial_number),
            key === 'transfer_readings' ? 'transfer' : 'history',
            str(r.register_id),
            str(r.reading_date),
            dec(r.reading_value),
            str(r.reading_type),
          ),
        ),
      ),
    ),
  );
  const storedReadings = (await rows(db, READINGS, [id])).map((r) =>
    row(r.serial_number, r.kind, r.register_id, r.reading_date, dec(r.reading_value), r.reading_type),
  );
  out.push(...multisetDifferences('readings', readings, storedReadings));
  out.push(
    ...multisetDifferences(
      'payment_schedules',
      list(p.payment_schedules).map((s) => row(dec(s.amount), str(s.start_date))),
      (await rows(db, SCHEDULES, [id])).map((s) => row(dec(s.amount), s.start_date)),
    ),
  );
  const sentNotes = list(p.notes).map((n) =>
    row(str(n.body) ?? '', n.created_at === undefined ? 'now' : instant(n.created_at)),
  );
  const storedNotes = (await rows(db, NOTES, [id])).map((n, i) =>
    row(n.body, list(p.notes)[i]?.created_at === undefined ? 'now' : dec(n.created_at)),
  );
  out.push(...multisetDifferences('notes', sentNotes, storedNotes));
  out.push(
    ...multisetDifferences(
      'account_references',
      list(p.references).map((r) => row(str(r.namespace), str(r.value))),
      (await rows(db, REFERENCES, [id])).map((r) => row(r.namespace, r.value)),
    ),
  );
  const storedMeta = new Map(
    (await rows(db, METADATA, [id])).map((m) => [m.key as string, m.value as string | null]),
  );
  for (const m of list(p.metadata)) {
    const stored = storedMeta.get(str(m.key) ?? '');
    if (stored === undefined) out.push(`account_metadata: key ${JSON.stringify(m.key)} not stored`);
    else
      out.push(
        ...jsonDifferences(m.value ?? null, stored === null ? null : parseLossless(stored)).map(
          (d) => `account_metadata[${str(m.key)}] ${d}`,
        ),
      );
  }
  out.push(
    ...multisetDifferences(
      'statements',
      list(p.statements).map((s) =>
        row(str(s.statement_id), str(s.bill_period_from_date), str(s.bill_period_to_date)),
      ),
      (await rows(db, STATEMENTS, [id])).map((s) => row(s.statement_id, s.from_date, s.to_date)),
    ),
  );
  return out;
}

const MAX_NOTE = q('propMaxNote', 'SELECT coalesce(max(id), 0)::text AS id FROM notes WHERE account_id = $1');

/** The account's id, balance and newest note, for follow-up comparisons. */
export async function accountState(db: Db, supplier: string, external: string) {
  const [a] = await rows(db, ACCOUNT, [supplier, external]);
  const [note] = await rows(db, MAX_NOTE, [a.id]);
  return { id: a.id as string, balance: dec(a.balance) as string, maxNoteId: note.id as string };
}

/** Notes of the account with an id above `afterId`, against the notes sent. */
export async function notesDifferences(
  db: Db,
  accountId: string,
  afterId: string,
  sentNotes: Node[],
): Promise<string[]> {
  const stored = (await rows(db, NOTES, [accountId])).filter((n) => BigInt(n.id) > BigInt(afterId));
  const render = (
    body: Node,
    createdAt: string | null,
    pinned: Node,
    unpin: string | null,
    paths: string[],
  ) => row(str(body) ?? '', createdAt, String(pinned === true), unpin, JSON.stringify(paths));
  return multisetDifferences(
    'notes',
    sentNotes.map((n) =>
      render(
        n.body,
        n.created_at === undefined ? 'now' : instant(n.created_at),
        n.is_pinned,
        n.unpin_at === undefined ? null : instant(n.unpin_at),
        list(n.document_paths).map((d) => str(d.document_path) ?? ''),
      ),
    ),
    stored.map((n, i) =>
      render(
        n.body,
        sentNotes[i]?.created_at === undefined ? 'now' : dec(n.created_at),
        n.is_pinned,
        n.unpin_at === null ? null : dec(n.unpin_at),
        n.document_paths,
      ),
    ),
  );
}

/** Transactions with the given ids, against the transactions sent (amount, date, type, extras). */
export async function transactionsDifferences(db: Db, accountId: string, sent: Node[]): Promise<string[]> {
  const ids = new Set(sent.map((t) => str(t.transaction_id)));
  const stored = (await rows(db, TRANSACTIONS, [accountId])).filter((t) => ids.has(t.transaction_id));
  const out = multisetDifferences(
    'transactions',
    sent.map((t) => transactionRow(t, 'current')),
    stored.map((t) =>
      row(t.transaction_id, t.statement, t.transaction_date, dec(t.amount), t.type, t.reason),
    ),
  );
  const byId = new Map(stored.map((t) => [t.transaction_id as string, parseLossless(t.data) as Node]));
  for (const t of sent) {
    const data = byId.get(str(t.transaction_id) ?? '');
    if (!data) continue;
    for (const key of ['display_note', 'note', 'reference', 'payment_type', 'product_code']) {
      if (t[key] !== undefined && str(data[key]) !== str(t[key])) {
        out.push(
          `transactions[${str(t.transaction_id)}].data.${key}: sent ${JSON.stringify(t[key])}, stored ${JSON.stringify(str(data[key]))}`,
        );
      }
    }
  }
  return out;
}

/** Statements with the given ids, against the statements sent (dates, path, number, gross amount). */
export async function statementsDifferences(db: Db, accountId: string, sent: Node[]): Promise<string[]> {
  const ids = new Set(sent.map((s) => str(s.statement_id)));
  const stored = (await rows(db, STATEMENTS, [accountId])).filter((s) => ids.has(s.statement_id));
  return multisetDifferences(
    'statements',
    sent.map((s) =>
      row(
        str(s.statement_id),
        str(s.bill_period_from_date),
        str(s.bill_period_to_date),
        str(s.issued_date),
        str(s.number),
        dec(s.gross_amount),
      ),
    ),
    stored.map((s) => {
      const data = parseLossless(s.data) as Node;
      return row(
        s.statement_id,
        s.from_date,
        s.to_date,
        s.issued_date,
        str(data.number),
        dec(data.gross_amount),
      );
    }),
  );
}

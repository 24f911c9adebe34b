import { randomBytes } from 'node:crypto';
import { type Queryable, sql } from '../infra/db/db.ts';
import {
  type AccountRows,
  accountRows,
  countIds,
  openingBalance,
  openStatementStart,
} from './account-records.ts';

/** A failure that belongs to the account, not to the machine: the process ends ERRORED with it. */
export class AccountCreationError extends Error {
  constructor(
    readonly code: string,
    detail: string,
  ) {
    super(detail);
  }
}

// Column lists of each child table, in the order of jsonb_to_recordset's record definition.
const TABLES: Record<keyof AccountRows, [string, string][]> = {
  account_customers: [
    ['account_id', 'bigint'],
    ['position', 'int'],
    ['given_name', 'text'],
    ['family_name', 'text'],
    ['email', 'text'],
    ['mobile', 'text'],
    ['landline', 'text'],
    ['date_of_birth', 'date'],
    ['attributes', 'jsonb'],
  ],
  billing_addresses: [
    ['account_id', 'bigint'],
    ['name', 'text'],
    ['address_lines', 'text[]'],
    ['postcode', 'text'],
    ['attributes', 'jsonb'],
  ],
  supply_addresses: [
    ['id', 'bigint'],
    ['account_id', 'bigint'],
    ['position', 'int'],
    ['address_lines', 'text[]'],
    ['postcode', 'text'],
    ['attributes', 'jsonb'],
  ],
  meter_points: [
    ['id', 'bigint'],
    ['account_id', 'bigint'],
    ['supply_address_id', 'bigint'],
    ['identifier', 'text'],
    ['supply_type', 'text'],
    ['supply_start_date', 'date'],
    ['attributes', 'jsonb'],
  ],
  agreements: [
    ['meter_point_id', 'bigint'],
    ['tariff_code', 'text'],
    ['effective_from', 'date'],
    ['effective_to', 'date'],
    ['attributes', 'jsonb'],
  ],
  meters: [
    ['id', 'bigint'],
    ['meter_point_id', 'bigint'],
    ['serial_number', 'text'],
    ['attributes', 'jsonb'],
  ],
  registers: [
    ['meter_id', 'bigint'],
    ['register_id', 'text'],
    ['attributes', 'jsonb'],
  ],
  readings: [
    ['meter_id', 'bigint'],
    ['kind', 'text'],
    ['register_id', 'text'],
    ['reading_date', 'date'],
    ['reading_value', 'numeric'],
    ['reading_type', 'text'],
    ['attributes', 'jsonb'],
  ],
  ledgers: [
    ['id', 'bigint'],
    ['account_id', 'bigint'],
    ['position', 'int'],
    ['ledger_balance', 'numeric'],
    ['last_statement_closing_date', 'date'],
    ['last_statement_balance', 'numeric'],
    ['attributes', 'jsonb'],
  ],
  transactions: [
    ['account_id', 'bigint'],
    ['ledger_id', 'bigint'],
    ['transaction_id', 'text'],
    ['statement', 'text'],
    ['transaction_date', 'date'],
    ['amount', 'numeric'],
    ['type', 'text'],
    ['reason', 'text'],
    ['data', 'jsonb'],
  ],
  statements: [
    ['account_id', 'bigint'],
    ['statement_id', 'text'],
    ['bill_period_from_date', 'date'],
    ['bill_period_to_date', 'date'],
    ['issued_date', 'date'],
    ['statement_path', 'text'],
    ['data', 'jsonb'],
  ],
  notes: [
    ['account_id', 'bigint'],
    ['body', 'text'],
    ['document_paths', 'text[]'],
    ['created_at', 'timestamptz'],
    ['is_pinned', 'boolean'],
    ['unpin_at', 'timestamptz'],
  ],
  payment_schedules: [
    ['account_id', 'bigint'],
    ['amount', 'numeric'],
    ['start_date', 'date'],
    ['attributes', 'jsonb'],
  ],
  account_references: [
    ['account_id', 'bigint'],
    ['namespace', 'text'],
    ['value', 'text'],
  ],
  account_metadata: [
    ['account_id', 'bigint'],
    ['key', 'text'],
    ['value', 'jsonb'],
  ],
};
const TABLE_NAMES = Object.keys(TABLES) as (keyof AccountRows)[];

// One statement inserts every child table: data-modifying CTEs all run, and foreign keys are
// checked at the end of the statement, so parents and children may share it.
const insertChildren = sql(
  'insertAccountRecords',
  `WITH ${TABLE_NAMES.map((t, i) => {
    const cols = TABLES[t].map(([c]) => c).join(', ');
    const def = TABLES[t].map(([c, ty]) => `${c} ${ty}`).join(', ');
    return `i_${t} AS (INSERT INTO ${t} (${cols}) SELECT ${cols} FROM jsonb_to_recordset($${i + 1}::jsonb) AS r(${def}))`;
  }).join(',\n')}
  SELECT 1`,
);

const allocateIds = sql(
  'allocateAccountRecordIds',
  `SELECT ARRAY(SELECT nextval('supply_addresses_id_seq') FROM generate_series(1, $1))::text[] AS supply_addresses,
          ARRAY(SELECT nextval('meter_points_id_seq') FROM generate_series(1, $2))::text[] AS meter_points,
          ARRAY(SELECT nextval('meters_id_seq') FROM generate_series(1, $3))::text[] AS meters,
          ARRAY(SELECT nextval('ledgers_id_seq') FROM generate_series(1, $4))::text[] AS ledgers`,
);

const insertAccount = sql(
  'insertAccount',
  `INSERT INTO accounts (number, import_supplier, external_account_number, import_process_id, account_type,
                         billing_name, balance, last_billed_to_date, open_statement_start, payload)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
   ON CONFLICT (number) DO NOTHING
   RETURNING id`,
);

const meterPointsTaken = sql(
  'selectMeterPointsOnAccounts',
  'SELECT identifier FROM meter_points WHERE identifier = ANY($1::text[])',
);
const referencesTaken = sql(
  'selectReferencesOnAccounts',
  `SELECT namespace, value FROM account_references
    WHERE (namespace, value) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
);
const insertWelcomeEmail = sql(
  'insertWelcomeEmail',
  "INSERT INTO email_outbox (account_id, kind, recipient) VALUES ($1, 'welcome', $2) ON CONFLICT DO NOTHING",
);

/** `A-` and 8 upper-case hex digits. */
export const newAccountNumber = () => `A-${randomBytes(4).toString('hex').toUpperCase()}`;

export interface CreateAccountInput {
  importProcessId: string;
  supplier: string;
  externalAccountNumber: string;
  // biome-ignore lint/suspicious/noExplicitAny: validated payload
  payload: Record<string, any>;
  sendWelcomeEmail: boolean;
  /** Local date in the service time zone (YYYY-MM-DD). */
  today: string;
}

/**
 * Creates the account and every record of it inside the caller's transaction. Throws
 * AccountCreationError when the account's data conflicts with accounts already created.
 */
export async function createAccount(
  tx: Queryable,
  input: CreateAccountInput,
): Promise<{ accountId: string; accountNumber: string }> {
  const p = input.payload;
  const mpxns = (p.supply_addresses ?? []).flatMap((sa: { meter_points?: { identifier: string }[] }) =>
    (sa.meter_points ?? []).map((mp) => String(mp.identifier)),
  );
  if (mpxns.length > 0) {
    const taken = (await tx.query<{ identifier: string }>(meterPointsTaken, [mpxns])).rows;
    if (taken.length > 0) {
      throw new AccountCreationError(
        'meter_point_on_another_account',
        `Meter point ${taken[0].identifier} is already on another account.`,
      );
    }
  }
  const refs = (p.references ?? []) as { namespace: string; value: string }[];
  if (refs.length > 0) {
    const taken = (
      await tx.query<{ namespace: string; value: string }>(referencesTaken, [
        refs.map((r) => r.namespace),
        refs.map((r) => r.value),
      ])
    ).rows;
    if (taken.length > 0) {
      throw new AccountCreationError(
        'reference_already_exists',
        `Reference ${taken[0].namespace}=${taken[0].value} is already on another account.`,
      );
    }
  }

  let accountId: string | undefined;
  let accountNumber = '';
  // Numbers are random: on the rare collision, draw again.
  for (let attempt = 0; accountId === undefined; attempt++) {
    if (attempt === 5) throw new Error('could not draw a free account number');
    accountNumber = newAccountNumber();
    const { rows } = await tx.query<{ id: string }>(insertAccount, [
      accountNumber,
      input.supplier,
      input.externalAccountNumber,
      input.importProcessId,
      p.account_type ?? null,
      p.billing_name ?? null,
      openingBalance(p),
      p.last_billed_to_date ?? null,
      openStatementStart(p, input.today),
      p,
    ]);
    accountId = rows[0]?.id;
  }

  const counts = countIds(p);
  const ids = (
    await tx.query<{
      supply_addresses: string[];
      meter_points: string[];
      meters: string[];
      ledgers: string[];
    }>(allocateIds, [counts.supplyAddresses, counts.meterPoints, counts.meters, counts.ledgers])
  ).rows[0];
  const rows = accountRows(
    p,
    {
      accountId,
      supplyAddresses: ids.supply_addresses,
      meterPoints: ids.meter_points,
      meters: ids.meters,
      ledgers: ids.ledgers,
    },
    new Date(),
  );
  await tx.query(
    insertChildren,
    TABLE_NAMES.map((t) => JSON.stringify(rows[t])),
  );

  if (input.sendWelcomeEmail) {
    await tx.query(insertWelcomeEmail, [accountId, p.customers?.[0]?.email ?? p.billing_email ?? null]);
  }
  return { accountId, accountNumber };
}

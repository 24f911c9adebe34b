import { randomBytes } from 'node:crypto';
import { type Queryable, sql, sqlGenericPlan, sqlPlannedEachCall } from '../infra/db/db.ts';
import { AccountCreationError } from './account-creation-error.ts';
import {
  type AccountRows,
  accountRows,
  countIds,
  openingBalance,
  openStatementStart,
} from './account-records.ts';
import { refuseAgainstReferenceData } from './reference-recheck.ts';
import { lockWavesAgainstApproval } from './welcome-emails/wave-hold.ts';

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
    ['external_id', 'text'],
    ['is_archived', 'boolean'],
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
// checked at the end of the statement, so parents and children may share it. Always its generic
// plan (decision 0109): a plan made for a batch's sixteen JSON values copies them all.
const insertChildren = sqlGenericPlan(
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

const ACCOUNT_COLUMNS: [string, string][] = [
  ['number', 'text'],
  ['import_supplier', 'text'],
  ['external_account_number', 'text'],
  ['import_process_id', 'bigint'],
  ['account_type', 'text'],
  ['billing_name', 'text'],
  ['balance', 'numeric'],
  ['last_billed_to_date', 'date'],
  ['open_statement_start', 'date'],
];
/**
 * Many accounts in one statement; a row whose random number is taken is skipped (see
 * createAccounts). The full payload stays on the account's import process, and only there
 * (migration 0029, decision 0098).
 */
const insertAccounts = sql(
  'insertAccounts',
  `INSERT INTO accounts (${ACCOUNT_COLUMNS.map(([c]) => c).join(', ')})
   SELECT ${ACCOUNT_COLUMNS.map(([c]) => `r.${c}`).join(', ')}
     FROM jsonb_to_recordset($1::jsonb) AS r(${ACCOUNT_COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
   ON CONFLICT (number) DO NOTHING
   RETURNING id, number`,
);

const meterPointsTaken = sql(
  'selectMeterPointsOnAccounts',
  'SELECT identifier FROM meter_points WHERE identifier = ANY($1::text[])',
);
// Planned at every call (decision 0101): the generic plan made while the table was small scans it
// whole, and each batch of creations then read every reference of every account.
const referencesTaken = sqlPlannedEachCall(
  'selectReferencesOnAccounts',
  `SELECT namespace, value FROM account_references
    WHERE (namespace, value) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
);
/**
 * The welcome e-mails of accounts $1 to recipients $2; one whose account's supplier $3 holds them
 * for wave $4 (null: not held) waits in the outbox for the wave's approval, unless the wave is
 * approved already (decision 0070).
 */
const insertWelcomeEmails = sql(
  'insertWelcomeEmails',
  `INSERT INTO email_outbox (account_id, kind, recipient, held_for_wave)
   SELECT e.account_id, 'welcome', e.recipient,
          CASE WHEN e.wave IS NOT NULL AND NOT EXISTS (
                 SELECT 1 FROM waves w
                  WHERE w.import_supplier = e.supplier AND w.wave = e.wave AND w.approved_at IS NOT NULL)
               THEN e.wave END
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS e(account_id, recipient, supplier, wave)
   ON CONFLICT DO NOTHING`,
);

/** `A-` and 8 upper-case hex digits. */
const newAccountNumber = () => `A-${randomBytes(4).toString('hex').toUpperCase()}`;

export interface CreateAccountInput {
  importProcessId: string;
  supplier: string;
  externalAccountNumber: string;
  // biome-ignore lint/suspicious/noExplicitAny: validated payload
  payload: Record<string, any>;
  sendWelcomeEmail: boolean;
  /**
   * The wave whose approval the welcome e-mail waits for (the supplier holds welcome e-mails and
   * the process is in a wave); null or absent: sent as soon as the sender gets to it.
   */
  holdWelcomeEmailForWave?: string | null;
  /** Local date in the service time zone (YYYY-MM-DD). */
  today: string;
}

export interface CreatedAccount {
  accountId: string;
  accountNumber: string;
}

/**
 * Creates the accounts and every record of them inside the caller's transaction, in a fixed
 * number of statements however many accounts there are. Throws AccountCreationError when an
 * account's data conflicts with accounts already created (naming the first conflict); a
 * conflict between two accounts of the same call surfaces as a unique violation.
 */
export async function createAccounts(tx: Queryable, inputs: CreateAccountInput[]): Promise<CreatedAccount[]> {
  if (inputs.length === 0) return [];
  refuseAgainstReferenceData(inputs);
  await refuseTakenIdentifiers(tx, inputs);
  const accountIds = await insertAccountRows(tx, inputs);

  const counts = inputs.map((input) => countIds(input.payload));
  const sum = (k: keyof (typeof counts)[number]) => counts.reduce((n, c) => n + c[k], 0);
  const ids = (
    await tx.query<{
      supply_addresses: string[];
      meter_points: string[];
      meters: string[];
      ledgers: string[];
    }>(allocateIds, [sum('supplyAddresses'), sum('meterPoints'), sum('meters'), sum('ledgers')])
  ).rows[0];
  const tables = Object.fromEntries(TABLE_NAMES.map((t) => [t, [] as unknown[]])) as Record<
    keyof AccountRows,
    unknown[]
  >;
  const taken = { supplyAddresses: 0, meterPoints: 0, meters: 0, ledgers: 0 };
  const next = (k: keyof typeof taken, list: string[], n: number) => {
    const start = taken[k];
    taken[k] += n;
    return list.slice(start, start + n);
  };
  const now = new Date();
  inputs.forEach((input, i) => {
    const c = counts[i];
    const rows = accountRows(
      input.payload,
      {
        accountId: accountIds[i].accountId,
        supplyAddresses: next('supplyAddresses', ids.supply_addresses, c.supplyAddresses),
        meterPoints: next('meterPoints', ids.meter_points, c.meterPoints),
        meters: next('meters', ids.meters, c.meters),
        ledgers: next('ledgers', ids.ledgers, c.ledgers),
      },
      now,
    );
    for (const t of TABLE_NAMES) for (const row of rows[t]) tables[t].push(row);
  });
  await tx.query(
    insertChildren,
    TABLE_NAMES.map((t) => JSON.stringify(tables[t])),
  );

  const welcome = inputs.flatMap((input, i) =>
    input.sendWelcomeEmail
      ? [
          {
            accountId: accountIds[i].accountId,
            recipient: input.payload.customers?.[0]?.email ?? input.payload.billing_email ?? null,
            supplier: input.supplier,
            wave: input.holdWelcomeEmailForWave ?? null,
          },
        ]
      : [],
  );
  if (welcome.length > 0) {
    // Whether a held e-mail's wave is approved is read under the wave's approval lock (wave-hold.ts).
    await lockWavesAgainstApproval(
      tx,
      welcome.flatMap((w) => (w.wave === null ? [] : [{ supplier: w.supplier, wave: w.wave }])),
    );
    await tx.query(insertWelcomeEmails, [
      welcome.map((w) => w.accountId),
      welcome.map((w) => w.recipient),
      welcome.map((w) => w.supplier),
      welcome.map((w) => w.wave),
    ]);
  }
  return accountIds;
}

/** One account: createAccounts of one. */
export async function createAccount(tx: Queryable, input: CreateAccountInput): Promise<CreatedAccount> {
  return (await createAccounts(tx, [input]))[0];
}

/** Meter points and references already on other accounts fail the account that brings them. */
async function refuseTakenIdentifiers(tx: Queryable, inputs: CreateAccountInput[]) {
  const mpxns = inputs.flatMap(({ payload }) =>
    (payload.supply_addresses ?? []).flatMap((sa: { meter_points?: { identifier: string }[] }) =>
      (sa.meter_points ?? []).map((mp) => String(mp.identifier)),
    ),
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
  const refs = inputs.flatMap(
    ({ payload }) => (payload.references ?? []) as { namespace: string; value: string }[],
  );
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
}

/** Inserts the accounts rows; numbers are random, and those that collide are drawn again. */
async function insertAccountRows(tx: Queryable, inputs: CreateAccountInput[]): Promise<CreatedAccount[]> {
  const out: (CreatedAccount | undefined)[] = inputs.map(() => undefined);
  for (let attempt = 0; out.some((a) => a === undefined); attempt++) {
    if (attempt === 5) throw new Error('could not draw free account numbers');
    // Distinct within the statement too: ON CONFLICT would skip the second of two equal numbers.
    const drawn = new Set<string>();
    const draw = (): string => {
      const n = newAccountNumber();
      if (drawn.has(n)) return draw();
      drawn.add(n);
      return n;
    };
    const pending = inputs.flatMap((input, i) =>
      out[i] === undefined ? [{ input, i, number: draw() }] : [],
    );
    const rows = pending.map(({ input, number }) => {
      const p = input.payload;
      return {
        number,
        import_supplier: input.supplier,
        external_account_number: input.externalAccountNumber,
        import_process_id: input.importProcessId,
        account_type: p.account_type ?? null,
        billing_name: p.billing_name ?? null,
        balance: openingBalance(p),
        last_billed_to_date: p.last_billed_to_date ?? null,
        open_statement_start: openStatementStart(p, input.today),
      };
    });
    const inserted = (await tx.query<{ id: string; number: string }>(insertAccounts, [JSON.stringify(rows)]))
      .rows;
    const idByNumber = new Map(inserted.map((r) => [r.number, r.id]));
    for (const { i, number } of pending) {
      const accountId = idByNumber.get(number);
      if (accountId !== undefined) out[i] = { accountId, accountNumber: number };
    }
  }
  return out as CreatedAccount[];
}

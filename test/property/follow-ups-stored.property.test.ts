/**
 * "Accepted ⇒ stored exactly" for the four follow-up imports (docs/product.md, Errors): generated notes,
 * transactions, historical statements and payment instructions, valid or with hostile edits.
 * What is accepted (201) is read back from the database and equals what was sent (transaction
 * amounts and the account balance to the penny, datetimes to the nanosecond); what is refused is
 * a 4xx in our format with real attrs, and nothing was stored. PROPERTY_RUNS and PROPERTY_SEED
 * set runs and seed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startVendorSimulator, type VendorSimulator } from '../../dev/vendor-simulator/vendor-simulator.ts';
import { sql } from '../../src/infra/db/db.ts';
import { applyMutations, type Json, type Mutation } from '../fuzz/fuzz-values.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { decimalOf, parseLossless, toJsonText } from '../helpers/json-text.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { dateBetween, dateTime, decimal, text, writeDec } from './generators.ts';
import { fcOptions, hostileEdits, oracleSpec, RUNS, sendChecked } from './property-run.ts';
import {
  accountState,
  notesDifferences,
  statementsDifferences,
  transactionsDifferences,
} from './stored-values.ts';

const SUPPLIER = 'PROPF';
const ROOT = 'propf/docs';
const ACCOUNTS = 12;

// biome-ignore lint/suspicious/noExplicitAny: lossless JSON bodies
type Node = any;

/** A valid body, or the same with hostile edits. */
const maybeHostile = <T>(valid: fc.Arbitrary<T>) =>
  fc.tuple(
    valid,
    fc.oneof({ weight: 3, arbitrary: fc.constant([] as Mutation[]) }, { weight: 1, arbitrary: hostileEdits }),
  );

const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

const note = fc.record(
  {
    body: text(200, 1),
    created_at: dateTime(1, 2020),
    is_pinned: fc.constant(true),
    unpin_at: dateTime(2100, 9999),
    document_paths: fc.constant([{ document_path: 'notes/n1.pdf' }]),
  },
  { requiredKeys: ['body'] },
);

const TRANSACTION_KINDS = [
  ['PAYMENT', 'ACCOUNT_CHARGE_PAYMENT', 1n],
  ['CREDIT', 'IMPORTED_CREDIT', 1n],
  ['CHARGE', 'IMPORTED_CHARGE', -1n],
  ['REPAYMENT', 'FULL_CREDIT_REFUND', -1n],
] as const;

const transaction = fc.record({
  kind: fc.integer({ min: 0, max: TRANSACTION_KINDS.length - 1 }),
  amount: decimal(10, 2, { forms: ['string', 'padded', 'number'] }),
  date: dateBetween('2019-08-01', yesterday),
  id: text(20),
  display_note: fc.option(text(100), { nil: undefined }),
  note: fc.option(text(100), { nil: undefined }),
  reference: fc.option(text(50), { nil: undefined }),
});

const statement = fc.record({
  from: dateBetween('1990-01-01', '2019-06-30'),
  days: fc.integer({ min: 0, max: 30 }),
  id: text(40),
  issued: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  number: fc.option(text(40), { nil: undefined }),
  gross: fc.option(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constant(Number.MAX_SAFE_INTEGER)), {
    nil: undefined,
  }),
  path: fc.boolean(),
});

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

describe(`follow-up imports: accepted ⇒ stored exactly (${RUNS} runs each)`, () => {
  let sim: VendorSimulator;
  let t: TestApp;
  let headers: Record<string, string>;
  let accounts: string[] = [];
  let run = 0;
  const nextAccount = () => accounts[run % accounts.length];

  before(async () => {
    sim = await startVendorSimulator();
    t = await createTestApp({ ...sim.env, RATE_LIMIT_PER_SECOND: '1000000' });
    ({ headers } = await tokenFor(t.app, ['*'], [SUPPLIER]));
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { document_root: ROOT }, 200);
    accounts = await importAccounts(
      t,
      headers,
      Array.from({ length: ACCOUNTS }, (_, i) => accountFor(SUPPLIER, 700 + i)),
    );
    const pdf = Buffer.from('%PDF-1.4\n% property\n');
    for (const p of ['notes/n1.pdf', 'statements/s1.pdf']) await t.objectStore.put(`${ROOT}/${p}`, pdf);
  });
  after(async () => {
    await t?.close();
    await sim?.close();
  });

  // 201s per property: a property whose valid bodies are mostly refused proves little.
  let accepted = 0;
  const property = async <T extends [unknown]>(prop: fc.IAsyncPropertyWithHooks<T>) => {
    accepted = 0;
    await fc.assert(prop, fcOptions);
    assert.ok(
      accepted >= Math.ceil(RUNS / 3),
      `only ${accepted} of ${RUNS} bodies (3 in 4 valid) were accepted`,
    );
  };

  /** Sends the (possibly edited) body; on 201 returns the parsed body and answer for comparison. */
  async function send(path: string, body: Json, edits: Mutation[]) {
    const log: string[] = [];
    const text = toJsonText(applyMutations(body, edits, log));
    const r = await sendChecked(t, headers, oracleSpec(path, 'POST', path), text);
    const where = `${log.length > 0 ? `${log.join('; ')}: ` : ''}${text.slice(0, 2_000)}`;
    if (r.status >= 500 || r.problems.length > 0)
      throw new Error(`${r.status}: ${r.problems.join('\n') || JSON.stringify(r.json)}\nbody: ${where}`);
    if (r.status === 201) accepted++;
    return { ...r, sent: parseLossless(text) as Node, where };
  }

  const check = (problems: string[], where: string) => {
    if (problems.length > 0)
      throw new Error(`accepted, but not stored exactly:\n${problems.join('\n')}\nbody: ${where}`);
  };

  /**
   * One follow-up property: `items` written into a body for a fresh account (each item given a
   * unique key), maybe edited, sent; on 201 `verify` lists where the database differs from it.
   */
  const followUpProperty = <T>(
    path: string,
    key: string,
    items: fc.Arbitrary<T[]>,
    item: (x: T, unique: string) => Json,
    verify: (sent: Node, answer: Node, before: Awaited<ReturnType<typeof accountState>>) => Promise<string[]>,
  ) =>
    property(
      fc.asyncProperty(maybeHostile(items), async ([xs, edits]) => {
        const ext = nextAccount();
        const id = ++run;
        const body = {
          import_supplier: SUPPLIER,
          external_account_number: ext,
          [key]: xs.map((x, i) => item(x, `${id}.${i}`)),
        };
        const before = await accountState(t.db, SUPPLIER, ext);
        const r = await send(path, body, edits);
        if (r.status !== 201 || r.sent?.external_account_number !== ext) return;
        check(await verify(r.sent, r.json, before), r.where);
      }),
    );

  it('notes', () =>
    followUpProperty(
      '/v1/data-import/notes/create/',
      'notes',
      fc.array(note, { minLength: 1, maxLength: 3 }),
      (n, unique) => ({ ...n, body: `${n.body} #${unique}` }),
      async (sent, answer, before) => {
        const created = (sent.notes as Node[]).filter(
          (_, i) => answer[i]?.status === 'NOTE_CREATION_SUCCESS',
        );
        return notesDifferences(t.db, before.id, before.maxNoteId, created);
      },
    ));

  it('transactions, and the account balance they move', () =>
    followUpProperty(
      '/v1/data-import/transactions/create/',
      'transactions',
      fc.array(transaction, { minLength: 1, maxLength: 3 }),
      (x, unique) => {
        const [type, reason] = TRANSACTION_KINDS[x.kind];
        return {
          transaction_id: `${unique}-${x.id}`,
          transaction_date: x.date,
          amount: writeDec(x.amount, { whole: 10, fraction: 2 }),
          type,
          reason,
          ...(x.display_note === undefined ? {} : { display_note: x.display_note }),
          ...(x.note === undefined ? {} : { note: x.note }),
          ...(x.reference === undefined ? {} : { reference: x.reference }),
        };
      },
      async (sent, answer, before) => {
        const added = (sent.transactions as Node[]).filter(
          (_, i) => answer.results?.[i]?.status === 'TRANSACTION_ADDED_TO_ACCOUNT',
        );
        const problems = await transactionsDifferences(t.db, before.id, added);
        // The balance moves by exactly the transactions' effect (payments and credits add).
        const after = await accountState(t.db, SUPPLIER, sent.external_account_number);
        let effect = 0n;
        for (const x of added) {
          const sign = TRANSACTION_KINDS.find(([type]) => type === x.type)?.[2] ?? 0n;
          effect += sign * scaled(x.amount);
        }
        if (scaled(after.balance) - scaled(before.balance) !== effect) {
          problems.push(
            `accounts.balance: ${before.balance} → ${after.balance}, expected a change of ${effect} × 10^-10`,
          );
        }
        return problems;
      },
    ));

  it('historical statements', () =>
    followUpProperty(
      '/v1/data-import/historical-statements/create/',
      'statements',
      fc.array(statement, { minLength: 1, maxLength: 2 }),
      (s, unique) => {
        const to = addDays(s.from, s.days);
        return {
          bill_period_from_date: s.from,
          bill_period_to_date: to,
          statement_id: `${unique}-${s.id}`,
          ...(s.issued === undefined ? {} : { issued_date: addDays(to, s.issued) }),
          ...(s.number === undefined ? {} : { number: s.number }),
          ...(s.gross === undefined ? {} : { gross_amount: s.gross }),
          ...(s.path ? { statement_path: 'statements/s1.pdf' } : {}),
        };
      },
      (sent, _answer, before) => statementsDifferences(t.db, before.id, sent.statements),
    ));

  it('payment instructions', async () => {
    const refs = [
      ['GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'],
      ['GOCARDLESS', 'MD000SIMPENDING', 'DIRECT_DEBIT'],
      ['STRIPE', 'pm_sim_card_visa', 'CARD'],
      ['STRIPE', 'pm_sim_sepa_debit', 'DIRECT_DEBIT'],
    ] as const;
    await property(
      fc.asyncProperty(maybeHostile(fc.constantFrom(...refs)), async ([[vendor, reference, type], edits]) => {
        const ext = nextAccount();
        ++run;
        const r = await send(
          '/v1/data-import/payment-instruction/create/',
          { import_supplier: SUPPLIER, external_account_number: ext, vendor, reference, type },
          edits,
        );
        if (r.status !== 201 || r.sent?.external_account_number !== ext) return;
        const stored = (
          await t.db.query<Node>(
            sql(
              '',
              `SELECT p.vendor, p.type, p.reference FROM payment_instructions p JOIN accounts a ON a.id = p.account_id
                WHERE a.import_supplier = $1 AND a.external_account_number = $2 AND p.reference = $3`,
            ),
            [SUPPLIER, ext, r.sent.reference],
          )
        ).rows;
        const got = stored.map((s) => `${s.vendor} ${s.type} ${s.reference}`);
        assert.deepEqual(got, [`${r.sent.vendor} ${r.sent.type} ${r.sent.reference}`], r.where);
      }),
    );
  });
});

/** A decimal (string, JSON number or text from the database) scaled by 10^10; 0 if not one. */
function scaled(v: Node): bigint {
  const d = decimalOf(v);
  if (d === null) return 0n;
  const [whole, fraction = ''] = d.replace('-', '').split('.');
  const units = BigInt(whole + fraction.padEnd(10, '0').slice(0, 10));
  return d.startsWith('-') ? -units : units;
}

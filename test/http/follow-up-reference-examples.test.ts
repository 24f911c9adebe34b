/**
 * What a client written from the real deployment's document sends, the four follow-up imports
 * accept: every follow-up request example of the GB reference (docs/product.md, Sources) — its
 * example files and the request examples of its OpenAPI document — posted verbatim for an imported
 * account answers 201.
 *
 * The examples are data kept in test/fixtures/reference-examples/ (its README says where each
 * comes from); a test fails when a copy no longer matches the digest it was copied with.
 *
 * What is replaced before posting, and why (nothing else is touched):
 * - `external_account_number`: each body goes to an account of its own, imported first, so its
 *   items are new there (reposting to one account would answer "already exists", which proves
 *   less). `import_supplier` stays TENTACLE_ENERGY (the test creates that supplier).
 * - notes: the pinned note's `unpin_at` (2020-06-01) becomes a year from now. That note has no
 *   `created_at`, which defaults to now, and an `unpin_at` may not precede it (the reference's own
 *   rule): the date was in the future when the document was written.
 * Not replaced, because the state is arranged instead: the transactions' dates (2019-10-01) lie
 * in the imported account's open statement period (from 2019-08-01), the account's own migrated
 * transactions are renamed so ids "1"–"6" are free, the documents are put at the examples'
 * paths, and the vendor simulator holds the Stripe payment method THIS-IS-A-FAKE-REFERENCE.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startVendorSimulator, type VendorSimulator } from '../../dev/vendor-simulator/vendor-simulator.ts';
import { simulatedPaymentMethod } from '../../dev/vendor-simulator/vendor-simulator-records.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const REFERENCE = new URL('../fixtures/reference-examples/', import.meta.url);
const SUPPLIER = 'TENTACLE_ENERGY';
const ROOT = 'tentacle/reference';

const NOTES = '/v1/data-import/notes/create/';
const TRANSACTIONS = '/v1/data-import/transactions/create/';
const STATEMENTS = '/v1/data-import/historical-statements/create/';
const PAYMENT_INSTRUCTION = '/v1/data-import/payment-instruction/create/';
const ENDPOINTS = [NOTES, TRANSACTIONS, STATEMENTS, PAYMENT_INSTRUCTION];

/** Each follow-up example file of the reference: its copy, and the endpoint it is the body of. */
const EXAMPLE_FILES: Record<string, { copy: URL; endpoint: string }> = {
  'notes.json': { copy: new URL('notes.json', REFERENCE), endpoint: NOTES },
  'transactions.json': { copy: new URL('transactions.json', REFERENCE), endpoint: TRANSACTIONS },
  'historical-statements.json': {
    copy: new URL('historical-statements.json', REFERENCE),
    endpoint: STATEMENTS,
  },
  'payment-instruction.json': {
    copy: new URL('payment-instruction.json', REFERENCE),
    endpoint: PAYMENT_INSTRUCTION,
  },
};

/** The GB document's request examples of the four endpoints: path → example name → body. */
const OPENAPI_COPY = new URL('gb-follow-up-request-examples.json', REFERENCE);
/** The account example, the GB document's extract, and what describes the folder: not follow-up files. */
const NOT_FOLLOW_UP = new Set([
  'account.json',
  'gb-follow-up-request-examples.json',
  'README.md',
  'SHA256SUMS',
]);

const readJson = (url: URL): Obj => JSON.parse(readFileSync(url, 'utf8'));

/** The digest each copy was taken with (SHA256SUMS, `sha256sum` format): file name → hex. */
function copiedDigests(): Map<string, string> {
  const lines = readFileSync(new URL('SHA256SUMS', REFERENCE), 'utf8').trim().split('\n');
  return new Map(lines.map((line) => line.split(/\s+\*?/).reverse() as [string, string]));
}

const digestOf = (url: URL) => createHash('sha256').update(readFileSync(url)).digest('hex');

/** Every body to post: [label, endpoint, body as in the reference]. */
function referenceBodies(): [string, string, Obj][] {
  const bodies: [string, string, Obj][] = Object.entries(EXAMPLE_FILES).map(([file, { copy, endpoint }]) => [
    `examples/${file}`,
    endpoint,
    readJson(copy),
  ]);
  for (const [path, examples] of Object.entries(readJson(OPENAPI_COPY))) {
    for (const [name, body] of Object.entries(examples as Obj)) {
      bodies.push([`GB OpenAPI document ${path} ${name}`, path, body]);
    }
  }
  return bodies;
}

describe('the reference copies', () => {
  const digests = copiedDigests();

  it('hold every follow-up example file of the reference, unchanged', () => {
    const files = readdirSync(REFERENCE).filter((f) => !NOT_FOLLOW_UP.has(f));
    assert.deepEqual(files.sort(), Object.keys(EXAMPLE_FILES).sort(), 'a follow-up example without a copy');
    for (const [file, { copy }] of Object.entries(EXAMPLE_FILES)) {
      assert.equal(digestOf(copy), digests.get(file), file);
    }
  });

  it('hold every request example of the four endpoints in the GB OpenAPI document, unchanged', () => {
    const examples = readJson(OPENAPI_COPY);
    for (const path of ENDPOINTS) assert.ok(Object.keys(examples[path]).length > 0, `${path} has examples`);
    assert.equal(digestOf(OPENAPI_COPY), digests.get('gb-follow-up-request-examples.json'));
  });
});

describe('the reference request examples, posted verbatim', () => {
  let sim: VendorSimulator;
  let t: TestApp;
  let headers: Record<string, string>;
  const bodies = referenceBodies();
  const accounts: string[] = [];

  before(async () => {
    sim = await startVendorSimulator();
    t = await createTestApp(sim.env);
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { document_root: ROOT }, 200);
    const payloads = bodies.map((_, i) => {
      const account = accountFor(SUPPLIER, 900 + i);
      for (const ledger of account.ledgers) {
        for (const list of [
          ledger.current_statement_transactions,
          ledger.historical_statement_transactions,
        ]) {
          for (const x of list) x.transaction_id = `migrated-${x.transaction_id}`;
        }
      }
      return account;
    });
    accounts.push(...(await importAccounts(t, headers, payloads)));
    await t.objectStore.put(`${ROOT}/some/path/to/a/document.pdf`, Buffer.from('%PDF-1.4 note'));
    await t.objectStore.put(`${ROOT}/path/to/statement-1.pdf`, Buffer.from('%PDF-1.7 statement'));
    sim.setPaymentMethod(simulatedPaymentMethod('THIS-IS-A-FAKE-REFERENCE'));
  });
  after(async () => {
    await t?.close();
    await sim?.close();
  });

  it('has a body for each of the four endpoints from each source', () => {
    for (const endpoint of ENDPOINTS) {
      assert.equal(bodies.filter(([, e]) => e === endpoint).length, 2, endpoint);
    }
  });

  bodies.forEach(([label, endpoint, reference], i) => {
    it(`accepts ${label} (201)`, async () => {
      const body = structuredClone(reference);
      body.external_account_number = accounts[i];
      if (endpoint === NOTES) {
        const pinned = body.notes.find((n: Obj) => n.unpin_at !== undefined && n.created_at === undefined);
        pinned.unpin_at = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
      }
      const res = await t.app.inject({ method: 'POST', url: endpoint, headers, payload: body });
      assert.equal(res.statusCode, 201, res.body);
      const out = res.json();
      if (endpoint === NOTES) {
        assert.deepEqual(
          out.map((n: Obj) => n.status),
          body.notes.map(() => 'NOTE_CREATION_SUCCESS'),
        );
      } else if (endpoint === TRANSACTIONS) {
        assert.deepEqual(
          out.results.map((r: Obj) => [r.transaction_data.transaction_id, r.status]),
          body.transactions.map((x: Obj) => [x.transaction_id, 'TRANSACTION_ADDED_TO_ACCOUNT']),
        );
      } else if (endpoint === STATEMENTS) {
        assert.deepEqual(out, body);
      } else {
        assert.equal(out.reference, body.reference);
      }
    });
  });
});

/**
 * Follow-up profiles (decision 0094) mapped without a service: the kind the command names must be
 * the profile's `book`, and a statement's PDF is a path column relative to the profile's folder,
 * checked to be inside it, there and a PDF, each problem at its file:line:column.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runMapCommand } from '../../src/cli/map-commands.ts';
import { bodiesOf } from '../../src/flat-files/follow-up-book.ts';

const EXAMPLE = new URL('../../examples/legacy-export/', import.meta.url).pathname;

async function map(args: string[]) {
  let out = '';
  let err = '';
  const code = await runMapCommand(args, {
    out: (s) => {
      out += s;
    },
    err: (s) => {
      err += s;
    },
  });
  return { code, out, err };
}

const STATEMENTS_PROFILE = `profile: legacy-statements
version: 3
book: statements
files:
  statements:
    path: STATEMENTS.CSV
    key: STATEMENT_ID
fields:
  import_supplier: { const: MERIDIAN }
  external_account_number: { column: ACCOUNT_NO }
  statements[].statement_id: { column: STATEMENT_ID }
  statements[].bill_period_from_date: { column: FROM, date: dd/MM/yyyy }
  statements[].bill_period_to_date: { column: TO, date: dd/MM/yyyy }
  statements[].statement_path: { column: PDF, trim: true }
`;

describe('follow-up profiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-follow-up-map-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a profile whose book is not the command's kind, before reading a row", async () => {
    const profile = join(EXAMPLE, 'transactions.profile.yaml');
    const run = await map(['notes', '--profile', profile, '--out', join(dir, 'x.ndjson')]);
    assert.equal(run.code, 2);
    assert.deepEqual(run.err.trim().split('\n'), [
      `ferry map: ${profile}: book: the profile maps transactions, not notes`,
      'ferry map: the profile has 1 problem(s); nothing was read or written.',
    ]);
  });

  it("maps statements whose PDFs are in the profile's folder, the path sent as written", async () => {
    const folder = join(dir, 'good');
    mkdirSync(join(folder, 'pdfs'), { recursive: true });
    writeFileSync(join(folder, 'pdfs', 's1.pdf'), '%PDF-1.4\n%fake\n');
    writeFileSync(join(folder, 'profile.yaml'), STATEMENTS_PROFILE);
    writeFileSync(
      join(folder, 'STATEMENTS.CSV'),
      'ACCOUNT_NO,STATEMENT_ID,FROM,TO,PDF\n100001,S-1,01/09/2024,30/09/2024, pdfs/s1.pdf\n',
    );
    const book = join(folder, 'statements.ndjson');
    const run = await map(['statements', '--profile', join(folder, 'profile.yaml'), '--out', book]);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(readFileSync(book, 'utf8')), {
      import_supplier: 'MERIDIAN',
      external_account_number: '100001',
      statements: [
        {
          statement_id: 'S-1',
          bill_period_from_date: '2024-09-01',
          bill_period_to_date: '2024-09-30',
          statement_path: 'pdfs/s1.pdf',
        },
      ],
    });
  });

  it('a PDF outside the folder, missing, not a PDF or a folder is a problem at its row and column', async () => {
    const folder = join(dir, 'bad');
    mkdirSync(join(folder, 'pdfs'), { recursive: true });
    writeFileSync(join(folder, 'pdfs', 's1.pdf'), '%PDF-1.4\n');
    writeFileSync(join(folder, 'pdfs', 's3.pdf'), 'not a pdf');
    writeFileSync(join(folder, 'profile.yaml'), STATEMENTS_PROFILE);
    writeFileSync(
      join(folder, 'STATEMENTS.CSV'),
      [
        'ACCOUNT_NO,STATEMENT_ID,FROM,TO,PDF',
        '100001,S-1,01/09/2024,30/09/2024,pdfs/s1.pdf',
        '100001,S-2,01/10/2024,31/10/2024,pdfs/s2.pdf',
        '100002,S-3,01/10/2024,31/10/2024,pdfs/s3.pdf',
        '100003,S-4,01/10/2024,31/10/2024,../secret.pdf',
        '100003,S-5,01/10/2024,31/10/2024,pdfs',
        '',
      ].join('\n'),
    );
    const book = join(folder, 'statements.ndjson');
    const run = await map(['statements', '--profile', join(folder, 'profile.yaml'), '--out', book]);
    assert.equal(run.code, 1);
    const key = 'fields.statements[].statement_path [PDF]';
    assert.deepEqual(run.err.trim().split('\n'), [
      `ferry map: STATEMENTS.CSV:3:5 document_not_found ${key}: pdfs/s2.pdf: ENOENT in the profile's folder`,
      `ferry map: STATEMENTS.CSV:4:5 invalid_statement_document ${key}: pdfs/s3.pdf is not a PDF (by its first bytes)`,
      `ferry map: STATEMENTS.CSV:5:5 invalid_document_path ${key}: "../secret.pdf" is not a path inside the profile's folder`,
      `ferry map: STATEMENTS.CSV:6:5 invalid_statement_document ${key}: pdfs is not a PDF (by its first bytes)`,
      'ferry map: 4 problem(s) in the source files (invalid_statement_document 2, document_not_found 1, invalid_document_path 1); nothing was written.',
    ]);
  });

  it('maps a payment instruction a row: a body without items, its fields checked against that body', async () => {
    const folder = join(dir, 'instructions');
    mkdirSync(folder, { recursive: true });
    const profile = `profile: legacy-mandates
version: 1
book: payment-instructions
format: { delimiter: ";" }
files:
  mandates: { path: MANDATES.CSV }
fields:
  import_supplier: { const: MERIDIAN }
  external_account_number: { column: ACCOUNT_NO }
  vendor: { const: GOCARDLESS }
  type: { const: DIRECT_DEBIT }
  reference: { column: MANDATE, trim: true }
  valid_from: { column: SINCE, date: dd/MM/yyyy }
  use_for_scheduled_payments: { column: DD_PLAN, map: { Y: true, N: false } }
`;
    writeFileSync(join(folder, 'profile.yaml'), profile);
    writeFileSync(
      join(folder, 'MANDATES.CSV'),
      'ACCOUNT_NO;MANDATE;SINCE;DD_PLAN\n100001; MD0001 ;03/02/2021;Y\n',
    );
    const book = join(folder, 'instructions.ndjson');
    const run = await map(['payment-instructions', '--profile', join(folder, 'profile.yaml'), '--out', book]);
    assert.equal(run.code, 0, run.err);
    assert.deepEqual(JSON.parse(readFileSync(book, 'utf8')), {
      import_supplier: 'MERIDIAN',
      external_account_number: '100001',
      vendor: 'GOCARDLESS',
      type: 'DIRECT_DEBIT',
      reference: 'MD0001',
      valid_from: '2021-02-03',
      use_for_scheduled_payments: true,
    });
    writeFileSync(join(folder, 'profile.yaml'), profile.replace('reference:', 'mandate_reference:'));
    const wrong = await map([
      'payment-instructions',
      '--profile',
      join(folder, 'profile.yaml'),
      '--out',
      book,
    ]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.err, /fields\.mandate_reference: not a field of the payment instruction body\n/);
    assert.match(
      wrong.err,
      /files\.mandates: reference is required by the payment instruction body and mapped by nothing\n/,
    );
  });

  it('leaves out a body without items and cuts one with more than a request takes', () => {
    const items = Array.from({ length: 2_001 }, (_, i) => ({ transaction_id: `T${i}` }));
    const sources = Object.fromEntries(items.map((_, i) => [`transactions.${i}`, `T.CSV:${i + 2}`]));
    const bodies = bodiesOf(
      {
        account: { external_account_number: 'A', transactions: items },
        sources: { '': 'A.CSV:2', ...sources },
      },
      'transactions',
    );
    assert.deepEqual(
      bodies.map((b) => (b.account.transactions as unknown[]).length),
      [1_000, 1_000, 1],
    );
    assert.deepEqual(bodies[2].sources, { '': 'A.CSV:2', 'transactions.0': 'T.CSV:2002' });
    assert.equal(bodies[1].sources['transactions.999'], 'T.CSV:2001');
    assert.deepEqual(bodiesOf({ account: { transactions: [] }, sources: {} }, 'transactions'), []);
  });
});

describe("the README's follow-up step", () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-follow-up-readme-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints what the README shows for the example’s transactions', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const command =
      '$ ferry map transactions --profile examples/legacy-export/transactions.profile.yaml --out transactions.ndjson\n';
    const at = readme.indexOf(command);
    assert.ok(at >= 0, 'the README shows the command');
    const shown = readme.slice(at + command.length).split('\n')[0];
    const book = join(dir, 'transactions.ndjson');
    const run = await map([
      'transactions',
      '--profile',
      join(EXAMPLE, 'transactions.profile.yaml'),
      '--out',
      book,
    ]);
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out.trim().replaceAll(dir + '/', ''), shown);
  });
});

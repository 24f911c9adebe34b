import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runMapCommand } from '../../src/cli/map-commands.ts';

const EXAMPLE = new URL('../../examples/legacy-export/', import.meta.url).pathname;

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMapCommand(argv, { out: (s) => void out.push(s), err: (s) => void err.push(s) });
  return { code, out: out.join(''), err: err.join('').split('\n').filter(Boolean) };
}

describe('ferry map accounts --profile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-map-command-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the book, one account a line, and the sources beside it (exit 0)', async () => {
    const book = join(dir, 'book.ndjson');
    const r = await run(['accounts', '--profile', join(EXAMPLE, 'profile.yaml'), '--out', book]);
    assert.equal(r.code, 0, r.err.join('\n'));
    assert.match(r.out, /3 accounts from 26 rows \(profile meridian-legacy version 1\)/);
    const lines = readFileSync(book, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((a) => a.external_account_number),
      ['100001', '100002', '100003'],
    );
    const sources = readFileSync(join(dir, 'book.sources.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(sources[1].sources['customers.1'], 'CUSTOMERS.CSV:4');
  });

  it('stops on a profile mistake before reading a row: one line per problem, exit 2, nothing written', async () => {
    const copy = join(dir, 'bad-profile');
    cpSync(EXAMPLE, copy, { recursive: true });
    const profile = join(copy, 'profile.yaml');
    const text = readFileSync(profile, 'utf8')
      .replace('parent: premises', 'parent: premisses')
      .replace('customers[].given_name:', 'customers[].first_name:');
    writeFileSync(profile, text);
    const r = await run(['accounts', '--profile', profile, '--out', join(copy, 'book.ndjson')]);
    assert.equal(r.code, 2);
    assert.deepEqual(r.err, [
      `ferry map: ${profile}: files.meter_points.parent: "premisses" is not a file of this profile`,
      `ferry map: ${profile}: fields.customers[].first_name: not a field of the account payload`,
      'ferry map: the profile has 2 problem(s); nothing was read or written.',
    ]);
    assert.equal(existsSync(join(copy, 'book.ndjson')), false);
  });

  it('stops on a source mistake: each problem located, grouped by code, exit 1, nothing written', async () => {
    const copy = join(dir, 'bad-source');
    cpSync(EXAMPLE, copy, { recursive: true });
    const customers = join(copy, 'CUSTOMERS.CSV');
    writeFileSync(customers, readFileSync(customers, 'latin1').replace('30/11/1976', '31/11/1976'), 'latin1');
    const r = await run([
      'accounts',
      '--profile',
      join(copy, 'profile.yaml'),
      '--out',
      join(copy, 'book.ndjson'),
    ]);
    assert.equal(r.code, 1);
    assert.deepEqual(r.err, [
      'ferry map: CUSTOMERS.CSV:4:7 unparseable_date fields.customers[].date_of_birth [BIRTH_DATE]: "31/11/1976" is not a date written dd/MM/yyyy',
      'ferry map: 1 problem(s) in the source files (unparseable_date 1); nothing was written.',
    ]);
    assert.equal(existsSync(join(copy, 'book.ndjson')), false);
    assert.equal(existsSync(join(copy, 'book.sources.ndjson')), false);
  });

  it('refuses a usage mistake with exit 2', async () => {
    assert.equal((await run(['accounts'])).code, 2);
    assert.equal((await run(['notes', '--profile', 'x.yaml'])).code, 2);
  });
});

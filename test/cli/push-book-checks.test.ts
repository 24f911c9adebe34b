/**
 * The whole-book checks of `ferry push accounts --validate-only` on files: both lines of each
 * repeat named, a repeated account not reported again for its own identifiers, and a hash
 * collision (forced: every key hashed alike) never reported as a conflict.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type BookChecks, checkBook } from '../../src/cli/push/push-book-checks.ts';
import { readInputLines } from '../../src/cli/push/push-input.ts';
import { LineTable } from '../../src/cli/push/push-line-table.ts';
import { hash64 } from '../../src/infra/hash64.ts';
import { accountFor } from '../helpers/account-fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'ferry-book-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Accounts 1..n (line i is account i), changed by `edit` where it says. */
function book(name: string, n: number, edit: (line: number, a: ReturnType<typeof accountFor>) => void) {
  const lines: string[] = [];
  for (let line = 1; line <= n; line++) {
    const a = accountFor('BOOK', line);
    edit(line, a);
    lines.push(JSON.stringify(a));
  }
  const file = join(dir, `${name}.ndjson`);
  // A blank line and a line that is not JSON: numbered as the file numbers them, and passed over.
  writeFileSync(file, `${lines.slice(0, 2).join('\n')}\n\n{not json\n${lines.slice(2).join('\n')}\n`);
  return file;
}

/** Every line's book errors, by line number (lines with none left out). */
async function errorsByLine(file: string, checks: BookChecks) {
  const found: Record<number, { code: string; attr: string | null; other_line?: number; detail: string }[]> =
    {};
  for await (const input of readInputLines(file)) {
    if (input.parseError !== null) continue;
    const errors = checks.errorsOf(input.line, input.value);
    if (errors.length > 0) found[input.line] = errors;
  }
  return found;
}

const brief = (errors: { code: string; attr: string | null; other_line?: number }[] = []) =>
  errors.map((e) => `${e.code} ${e.attr} ${e.other_line}`).sort();

describe('whole-book checks', () => {
  // File lines: accounts 1 and 2 on lines 1-2, a blank line 3, a bad line 4, then account k on line k+2.
  const lineOf = (account: number) => (account <= 2 ? account : account + 2);
  const edits = (account: number, a: ReturnType<typeof accountFor>) => {
    const base = accountFor('BOOK', 1);
    // Account 5 repeats account 1's external number (and so its identifiers, with its own MPRN).
    if (account === 5) {
      a.external_account_number = base.external_account_number;
      a.supply_addresses[0].meter_points[0].identifier = base.supply_addresses[0].meter_points[0].identifier;
    }
    // Accounts 6, 8 and 9 give account 2's MPAN; account 7 account 3's reference.
    if ([6, 8, 9].includes(account))
      a.supply_addresses[0].meter_points[0].identifier = accountFor(
        'BOOK',
        2,
      ).supply_addresses[0].meter_points[0].identifier;
    if (account === 7) a.references[0].value = accountFor('BOOK', 3).references[0].value;
  };

  for (const [name, hash] of [
    ['its hash', hash64],
    ['every key hashed alike', (): [number, number] => [7, 7]],
  ] as const) {
    it(`names both lines of each repeat, and nothing else (${name})`, async () => {
      const file = book(name.replace(/\W/g, '-'), 10, edits);
      const checks = await checkBook(file, 1, hash);
      try {
        const mpan = 'supply_addresses.0.meter_points.0.identifier';
        const found = await errorsByLine(file, checks);
        assert.deepEqual(
          Object.fromEntries(Object.entries(found).map(([line, errors]) => [line, brief(errors)])),
          {
            [lineOf(1)]: [`external_account_number_repeated_in_file external_account_number ${lineOf(5)}`],
            [lineOf(5)]: [`external_account_number_repeated_in_file external_account_number ${lineOf(1)}`],
            // The first line names the next one and counts the others.
            [lineOf(2)]: [`meter_point_on_another_account ${mpan} ${lineOf(6)}`],
            [lineOf(6)]: [`meter_point_on_another_account ${mpan} ${lineOf(2)}`],
            [lineOf(8)]: [`meter_point_on_another_account ${mpan} ${lineOf(2)}`],
            [lineOf(9)]: [`meter_point_on_another_account ${mpan} ${lineOf(2)}`],
            [lineOf(3)]: [`reference_already_exists references.0.value ${lineOf(7)}`],
            [lineOf(7)]: [`reference_already_exists references.0.value ${lineOf(3)}`],
          },
        );
        assert.match(
          found[lineOf(2)][0].detail,
          new RegExp(
            `line ${lineOf(6)} of the file \\(external account number EXT-0000006\\), and on 2 more lines\\.`,
          ),
        );
        assert.match(
          found[lineOf(6)][0].detail,
          new RegExp(`line ${lineOf(2)} of the file \\(external account number EXT-0000002\\)\\.`),
        );
        assert.equal(checks.isRepeat(lineOf(5)), true);
        assert.equal(checks.isRepeat(lineOf(1)), false);
        assert.equal(checks.conflicts, 5);
      } finally {
        checks.close();
      }
    });
  }

  it('keeps every key of a table that grows, colliding or not', () => {
    const table = new LineTable(10);
    const same = (a: number, b: number) => a % 1000 === b % 1000;
    for (let line = 1; line <= 5000; line++) {
      // Keys repeat every 1,000 lines; hashes collide in pairs of different keys.
      const key = line % 1000;
      const first = table.firstLineOf([Math.imul(Math.floor(key / 2), 2654435761) >>> 0, 1], line, (other) =>
        same(other, line),
      );
      assert.equal(first, line <= 1000 ? 0 : key === 0 ? 1000 : key, `line ${line}`);
    }
    assert.equal(table.size, 1000);
  });
});

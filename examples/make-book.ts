// A demo book for `ferry push` (README, "Migrating a book"): N distinct GB accounts for one
// supplier, one JSON document a line, with a few made invalid on purpose.
//   npx tsx examples/make-book.ts --supplier ACME --accounts 1000 --invalid 3 > book.ndjson
import { parseArgs } from 'node:util';
import { accountFor } from '../test/helpers/account-fixtures.ts';

const { values } = parseArgs({
  options: {
    supplier: { type: 'string', default: 'ACME' },
    accounts: { type: 'string', default: '1000' },
    invalid: { type: 'string', default: '0' },
  },
});
const n = Number(values.accounts);
const invalid = Number(values.invalid);
if (!Number.isInteger(n) || n < 1 || !Number.isInteger(invalid) || invalid < 0 || invalid > n) {
  console.error('usage: make-book.ts [--supplier CODE] [--accounts N] [--invalid K]');
  process.exit(2);
}
// The invalid ones are spread through the book: a mobile number that is not one, or a postcode.
const spoiled = Array.from({ length: invalid }, (_, k) => Math.round(((k + 1) * n) / (invalid + 1)));
const lines: string[] = [];
for (let i = 1; i <= n; i++) {
  const account = accountFor(values.supplier, i) as Record<string, unknown> & {
    customers: Record<string, unknown>[];
  };
  const k = spoiled.indexOf(i);
  if (k >= 0) {
    if (k % 2) account.customers[0].mobile = '0791';
    else account.billing_postcode = 'NOT A POSTCODE';
  }
  lines.push(JSON.stringify(account));
}
process.stdout.write(`${lines.join('\n')}\n`);

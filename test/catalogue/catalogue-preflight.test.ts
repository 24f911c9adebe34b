/**
 * A book against a loaded catalogue (decision 0091): 5,000 accounts, 40 of them on tariffs the
 * catalogue does not hold. `ferry push accounts --validate-only` names exactly those 40, grouped by
 * tariff code with counts (terminal and --summary JSON); the push then creates the other 4,960 and
 * none ends ERRORED. The service on a loopback port with its worker; the push in this process.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatTariffGroups, tariffAt } from '../../src/cli/push/push-catalogue-summary.ts';
import { push, readNdjson, serviceForPush } from '../helpers/push-run.ts';
import { tokenFor } from '../helpers/test-app.ts';
import { exampleProducts, regionCAccount, uploadCatalogue } from './catalogue-fixtures.ts';

const SUPPLIER = 'CATALOGUE_PREFLIGHT';
const ACCOUNTS = 5_000;
const VAR = 'E-1R-VAR-21-04-01-Q';
const NOTREAL = 'E-1R-NOTREAL-99-01-01-Z';
const TARIFF_AT = 'supply_addresses.0.meter_points.0.agreements.0.tariff_code';

/** Lines 125, 250, … 5,000 are on unknown tariffs: every fourth of them NOTREAL (10), the rest VAR (30). */
const unknownTariffOf = (line: number) => (line % 125 !== 0 ? null : (line / 125) % 4 === 0 ? NOTREAL : VAR);

describe('the tariff of a catalogue refusal', () => {
  it("is the value at a tariff_code attr, or the agreement's tariff_code when the rule reports at the agreement", () => {
    const account = regionCAccount(SUPPLIER, 1);
    const agreement = 'supply_addresses.0.meter_points.1.agreements.0';
    assert.equal(tariffAt(account, `${agreement}.tariff_code`), 'GAS-1234-J');
    assert.equal(tariffAt(account, agreement), 'GAS-1234-J');
    assert.equal(tariffAt(account, 'supply_addresses.0.meter_points.7.agreements.0'), null);
    assert.equal(
      tariffAt(account, 'ledgers.0.current_statement_transactions.0.line_items.0.rate_band'),
      null,
    );
    assert.equal(
      formatTariffGroups({
        'GAS-1234-J': {
          count: 3,
          codes: { tariff_type_does_not_match_meter_type: 2, open_ended_agreement_for_end_dated_product: 1 },
          external_account_numbers: ['EXT-1', 'EXT-2'],
        },
      }),
      'Catalogue refusals by tariff code (accounts, why, first accounts):\n' +
        '  GAS-1234-J: 3 accounts, payment method does not match the meter (2), open-ended agreement on an end-dated product (1) — EXT-1, EXT-2, …\n',
    );
  });
});

describe('the preflight against a catalogue: refusals by tariff code', () => {
  let service: Awaited<ReturnType<typeof serviceForPush>>;
  let apiKey: string;
  let book: string;
  const ext = (line: number) => `EXT-${String(line).padStart(7, '0')}`;
  const unknown = Array.from({ length: ACCOUNTS }, (_, i) => i + 1).filter((l) => unknownTariffOf(l));

  before(async () => {
    service = await serviceForPush('ferry-catalogue-preflight-');
    ({ apiKey } = await tokenFor(service.t.app, [SUPPLIER]));
    const upload = await uploadCatalogue(service.t.app, exampleProducts());
    assert.equal(upload.status, 200, JSON.stringify(upload.body));
    book = join(service.dir, 'book.ndjson');
    const lines: string[] = [];
    for (let line = 1; line <= ACCOUNTS; line++) {
      const account = regionCAccount(SUPPLIER, line);
      const tariff = unknownTariffOf(line);
      if (tariff) account.supply_addresses[0].meter_points[0].agreements[0].tariff_code = tariff;
      lines.push(JSON.stringify(account));
    }
    writeFileSync(book, `${lines.join('\n')}\n`);
  });
  after(() => service?.close());

  it('--validate-only names exactly the 40, grouped by tariff code; the push creates the other 4,960', async () => {
    assert.equal(unknown.length, 40);
    const summaryFile = join(service.dir, 'summary.json');
    const args = [book, '--url', service.baseUrl, '--api-key', apiKey];
    const preflight = await push([...args, '--validate-only', '--summary', summaryFile]);
    assert.equal(preflight.code, 1, preflight.err);

    const report = readNdjson(join(service.dir, 'book.validation.ndjson'));
    const rejected = report.filter((l) => l.status === 'REJECTED').map((l) => l.line);
    assert.deepEqual(
      rejected.sort((a, b) => a - b),
      unknown,
      'exactly the 40 are refused',
    );
    for (const l of report.filter((r) => r.status === 'REJECTED')) {
      assert.deepEqual(
        l.errors.map((e: { code: string; attr: string }) => [e.code, e.attr]),
        [['tariff_code_not_found', TARIFF_AT]],
      );
    }

    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    assert.deepEqual(summary.statuses, { VALID: 4_960, REJECTED: 40 });
    const first = (tariff: string) =>
      unknown
        .filter((l) => unknownTariffOf(l) === tariff)
        .slice(0, 5)
        .map(ext);
    assert.deepEqual(summary.catalogue, {
      [VAR]: { count: 30, codes: { tariff_code_not_found: 30 }, external_account_numbers: first(VAR) },
      [NOTREAL]: {
        count: 10,
        codes: { tariff_code_not_found: 10 },
        external_account_numbers: first(NOTREAL),
      },
    });
    // The code-and-field groups stay.
    assert.deepEqual(
      summary.errors.map((g: { code: string; attr: string; count: number }) => [g.code, g.attr, g.count]),
      [['tariff_code_not_found', TARIFF_AT, 40]],
    );
    assert.match(preflight.out, /Catalogue refusals by tariff code/);
    assert.match(
      preflight.out,
      new RegExp(`\\n  ${VAR}: 30 accounts, not in the catalogue — ${first(VAR).join(', ')}, …\\n`),
    );
    assert.match(preflight.out, new RegExp(`\\n  ${NOTREAL}: 10 accounts, not in the catalogue — `));

    const run = await push(args);
    assert.equal(run.code, 1, `${run.out}\n${run.err}`);
    const final = readNdjson(join(service.dir, 'book.report.ndjson'));
    const counts: Record<string, number> = {};
    for (const l of final) counts[l.status] = (counts[l.status] ?? 0) + 1;
    assert.deepEqual(counts, { PROCESSED: 4_960, REJECTED: 40 }, 'none ERRORED');
    assert.deepEqual(
      final
        .filter((l) => l.status === 'REJECTED')
        .map((l) => l.line)
        .sort((a, b) => a - b),
      unknown,
    );
  });
});

/**
 * `ferry push accounts --profile … --summary FILE` when the source files have problems: nothing is
 * sent, and the summary groups the problems by code and profile key, with their counts, a sample
 * detail and the first places, as it groups a push's validation errors by code and field.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runPushCommand } from '../../src/cli/push/push-command.ts';

const EXAMPLE = new URL('../../examples/legacy-export/', import.meta.url).pathname;

describe('ferry push --profile --summary: mapping problems grouped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-push-mapping-summary-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('groups the source files’ problems by code and profile key, and sends nothing', async () => {
    cpSync(EXAMPLE, dir, { recursive: true });
    const edit = (file: string, change: (text: string) => string) =>
      writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'latin1')), 'latin1');
    // Two unknown fuels, a day-first date that is no date, and a meter point of no premises (so its
    // meter and that meter's reading belong to no account either).
    edit('METER_POINTS.CSV', (t) =>
      t.replace(';G;MER', ';X;MER').replace(';E;MERI;;01/02', ';X;MERI;;01/02').replace('P-77', 'P-78'),
    );
    edit('ACCOUNTS.CSV', (t) => t.replace('31/10/2024;-12,50', '31/13/2024;-12,50'));
    const summaryPath = join(dir, 'summary.json');
    let out = '';
    let err = '';
    const code = await runPushCommand(
      [
        'accounts',
        join(dir, 'book.ndjson'),
        '--profile',
        join(dir, 'profile.yaml'),
        // Nothing listens here: the push must stop before it would ask.
        '--url',
        'http://127.0.0.1:9',
        '--api-key',
        'unused',
        '--summary',
        summaryPath,
      ],
      {
        out: (s) => {
          out += s;
        },
        err: (s) => {
          err += s;
        },
        progressStream: process.stderr,
        env: {},
      },
    );
    assert.equal(code, 1, err);
    assert.equal(existsSync(join(dir, 'book.ndjson')), false);
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8'));
    assert.deepEqual(
      { report: summary.report, lines: summary.lines, errors: summary.errors },
      { report: null, lines: 0, errors: [] },
    );
    const fuel = 'fields.supply_addresses[].meter_points[].supply_type';
    assert.deepEqual(
      summary.mapping.map((g: { code: string; key: string; count: number }) => [g.code, g.key, g.count]),
      [
        ['unmapped_value', fuel, 2],
        ['orphan_row', 'files.meter_points.join', 1],
        ['orphan_row', 'files.meters.join', 1],
        ['orphan_row', 'files.readings.join', 1],
        ['unparseable_date', 'fields.last_billed_to_date', 1],
      ],
    );
    assert.deepEqual(summary.mapping[0], {
      code: 'unmapped_value',
      key: fuel,
      count: 2,
      detail: summary.mapping[0].detail,
      examples: [
        { file: 'METER_POINTS.CSV', line: 2, column: 3, header: 'FUEL' },
        { file: 'METER_POINTS.CSV', line: 4, column: 3, header: 'FUEL' },
      ],
    });
    assert.match(summary.mapping[0].detail, /^"X" is not one of the map's values/);
    assert.match(out, /Mapping problems by code and profile key/);
    assert.match(
      out,
      new RegExp(
        `  2  unmapped_value at ${fuel.replaceAll(/[[\].]/g, '\\$&')}: METER_POINTS.CSV:2:3 \\[FUEL\\], METER_POINTS.CSV:4:3 \\[FUEL\\]\n`,
      ),
    );
    assert.match(out, /Summary: .*summary\.json\n/);
  });
});

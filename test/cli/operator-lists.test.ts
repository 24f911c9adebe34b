/**
 * `ferry process list`, `ferry supplier watch` and the CLI's help: per-command --help, "did you
 * mean", allowed values for a wrong flag, and the URL and cause when the service is unreachable.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { runAdminCommand } from '../../src/cli/admin-commands.ts';
import { editDistance, suggestCommand } from '../../src/cli/help.ts';
import { stageProcess } from '../helpers/processes.ts';
import { admin, listeningTestApp, type TestApp } from '../helpers/test-app.ts';

describe('ferry process list and supplier watch', () => {
  let t: TestApp;
  let env: Record<string, string>;
  before(async () => {
    ({ t, env } = await listeningTestApp());
    for (const code of ['LISTS', 'QUIET']) await admin(t.app, 'POST', '/import-suppliers/', { code });
    for (let i = 1; i <= 3; i++) await stageProcess(t.db, 'LISTS', `bad-${i}`, 'ERRORED');
    await stageProcess(t.db, 'LISTS', 'ok-1', 'PROCESSED');
    await stageProcess(t.db, 'LISTS', 'wait-1', 'PENDING');
  });
  after(() => t.close());

  async function run(
    cmd: string,
    flags: Record<string, string | boolean> = {},
    opts: { json?: boolean; tty?: boolean } = {},
  ) {
    const [group, ...args] = cmd.split(' ');
    const chunks: string[] = [];
    const code = await runAdminCommand(group, args, flags, {
      out: (s) => chunks.push(`${s}\n`),
      write: (s) => {
        chunks.push(s);
      },
      json: opts.json ?? false,
      tty: opts.tty,
      env,
    });
    return { code, text: chunks.join('') };
  }

  /** The real binary, run asynchronously: the service it talks to lives in this process. */
  function ferry(args: string[], extraEnv: Record<string, string> = env) {
    const child = spawn(process.execPath, ['bin/ferry.js', ...args], {
      env: { ...process.env, ...extraEnv },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('close', (status) => resolve({ status, stdout, stderr })),
    );
  }

  it('lists processes as a table by supplier, status and error code', async () => {
    const { code, text } = await run('process list', { supplier: 'LISTS', status: 'ERRORED' });
    assert.equal(code, 0);
    const lines = text.trimEnd().split('\n');
    assert.match(lines[0], /^IMPORT_SUPPLIER\s+EXTERNAL_ACCOUNT_NUMBER\s+STATUS\s+ERROR_CODE/);
    assert.match(lines[2], /^LISTS\s+bad-1\s+ERRORED\s+meter_point_on_another_account/);
    assert.equal(lines.length, 2 + 3 + 1);
    assert.equal(lines.at(-1), '3 processes');
    const byCode = await run('process list', { 'error-code': 'meter_point_on_another_account' });
    assert.match(byCode.text, /3 processes/);
    assert.equal((await run('process list', { supplier: 'QUIET' })).text, '(none)\n');
  });

  it('streams the list as CSV or as a JSON array', async () => {
    const csv = await run('process list', { supplier: 'LISTS', csv: true });
    const rows = csv.text.trimEnd().split('\r\n');
    assert.match(rows[0], /^import_supplier,external_account_number,status,/);
    assert.equal(rows.length, 1 + 5);
    const json = await run('process list', { supplier: 'LISTS', status: 'PROCESSED' }, { json: true });
    const list = JSON.parse(json.text);
    assert.equal(list.length, 1);
    assert.equal(list[0].external_account_number, 'ok-1');
    assert.match(list[0].service_account_number, /^A-/);
    assert.deepEqual(JSON.parse((await run('process list', { supplier: 'QUIET' }, { json: true })).text), []);
  });

  it('refuses a wrong --status locally, listing the states', async () => {
    const out = await ferry(['process', 'list', '--status', 'FAILED']);
    assert.equal(out.status, 2);
    assert.match(out.stderr, /--status "FAILED" is not one of: STAGED, PENDING, IN_PROGRESS, PROCESSED/);
    const supplier = await ferry(['process', 'list', '--supplier', 'NOPE']);
    assert.equal(supplier.status, 1);
    assert.match(supplier.stderr, /supplier: No import supplier has this code\. Allowed: LISTS, QUIET\./);
    const setStatus = await ferry(['supplier', 'set-status', 'LISTS', 'Sleeping']);
    assert.match(setStatus.stderr, /Allowed: Ongoing, Paused, Complete/);
  });

  it('watches counts per state: plain lines when not a terminal', async () => {
    const { code, text } = await run('supplier watch', { interval: '0.05', iterations: '2' });
    assert.equal(code, 0);
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 4); // two suppliers, twice
    assert.match(
      lines[0],
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ LISTS STAGED=0 PENDING=1 IN_PROGRESS=0 PROCESSED=1 CANCELLED=0 DRY_RUN_SUCCEEDED=0 ERRORED=3 DRY_RUN_ERRORED=0$/,
    );
    assert.match(lines[2], /LISTS .* created_per_min=0$/);
    const one = await run('supplier watch LISTS', { iterations: '1' });
    assert.equal(one.text.trimEnd().split('\n').length, 1);
  });

  it('watches as a redrawn table on a terminal, or as JSON lines', async () => {
    const tty = await run('supplier watch LISTS', { iterations: '1' }, { tty: true });
    assert.ok(tty.text.startsWith('\x1b[2J\x1b[H'));
    assert.match(tty.text, /Ctrl-C to stop/);
    assert.match(tty.text, /CODE\s+STATUS\s+STAGED\s+PENDING/);
    const json = await run('supplier watch LISTS', { iterations: '1' }, { json: true });
    assert.equal(JSON.parse(json.text).suppliers[0].ERRORED, 3);
  });

  it('stops watching on Ctrl-C and exits 0', async () => {
    const child = spawn(process.execPath, ['bin/ferry.js', 'supplier', 'watch', '--interval', '0.2'], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d) => {
        stdout += d;
        if (stdout.includes('LISTS')) resolve();
      }),
    );
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    assert.match(stdout, /QUIET STAGED=0/);
  });

  it('gives per-command help and suggests what a mistyped command meant', async () => {
    const help = await ferry(['process', 'list', '--help']);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: ferry process list \[--supplier S\]/);
    assert.match(help.stdout, /--error-code C/);
    assert.match((await ferry(['supplier', '--help'])).stdout, /Usage: ferry supplier watch/);
    const typo = await ferry(['proces', 'list']);
    assert.equal(typo.status, 2);
    assert.match(typo.stderr, /unknown command "proces list"\nDid you mean "ferry process list"\?/);
    assert.match((await ferry(['process', 'lsit'])).stderr, /Did you mean "ferry process list"\?/);
    assert.match((await ferry(['suplier', 'watch'])).stderr, /Did you mean "ferry supplier watch"\?/);
    assert.match((await ferry(['db', 'migrat'])).stderr, /Did you mean "ferry db migrate"\?/);
    const option = await ferry(['process', 'list', '--suplier', 'X']);
    assert.equal(option.status, 2);
    assert.match(option.stderr, /unknown option --suplier\nDid you mean "--supplier"\?/);
    assert.equal((await ferry(['--help'])).status, 0);
  });

  it('stops quietly with exit 0 when the reader of its output goes away (ferry … | head)', async () => {
    // The read end is closed before the command writes anything: its first write fails with
    // EPIPE, as a write after `head` has exited does.
    for (const args of [
      ['process', 'list', '--supplier', 'LISTS'],
      ['process', 'list', '--supplier', 'LISTS', '--csv'],
      ['process', 'list', '--supplier', 'LISTS', '--json'],
      ['supplier', 'watch', '--iterations', '3', '--interval', '0.05'],
      ['supplier', 'list'],
    ]) {
      const child = spawn(process.execPath, ['bin/ferry.js', ...args], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(stderr, '', args.join(' '));
      assert.equal(status, 0, args.join(' '));
    }
  });

  it('names the URL and the cause when the service cannot be reached', async () => {
    const out = await ferry(['supplier', 'list'], {
      FERRY_URL: 'http://127.0.0.1:59998',
      FERRY_OPERATOR_API_KEY: 'k',
    });
    assert.equal(out.status, 1);
    assert.match(
      out.stderr,
      /cannot reach the Ferry service at http:\/\/127\.0\.0\.1:59998 \(ECONNREFUSED\)/,
    );
  });

  it('suggests only near misses', () => {
    assert.equal(editDistance('lsit', 'list'), 1);
    assert.equal(suggestCommand(['zzz']), undefined);
    assert.equal(suggestCommand(['process', 'frobnicate']), undefined);
    assert.equal(suggestCommand(['apikye', 'lst']), 'apikey list');
  });
});

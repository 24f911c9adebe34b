import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { runAdminCommand } from '../../src/cli/admin-commands.ts';
import { stageProcess } from '../helpers/processes.ts';
import { listeningTestApp, type TestApp } from '../helpers/test-app.ts';

/** Every operator CLI command against the real API on a socket. */
describe('ferry operator CLI', () => {
  let t: TestApp;
  let env: Record<string, string>;
  before(async () => {
    ({ t, env } = await listeningTestApp());
  });
  after(() => t.close());

  async function run(cmd: string, flags: Record<string, string | boolean> = {}, json = false) {
    const [group, ...args] = cmd.split(' ');
    const lines: string[] = [];
    const code = await runAdminCommand(group, args, flags, { out: (s) => lines.push(s), json, env });
    return { code, text: lines.join('\n'), json: json ? JSON.parse(lines.join('\n')) : null };
  }

  it('supplier create / show / list / set-status / set, human and JSON', async () => {
    const created = await run('supplier create CLI1', {
      status: 'Paused',
      'document-root': 'docs/cli1',
      'send-welcome-emails': 'true',
    });
    assert.equal(created.code, 0);
    assert.match(created.text, /Created import supplier CLI1/);
    const shown = await run('supplier show CLI1', {}, true);
    assert.equal(shown.json.status, 'Paused');
    assert.equal(shown.json.document_root, 'docs/cli1');
    assert.equal(shown.json.config.send_welcome_emails, true);
    const list = await run('supplier list');
    assert.match(list.text, /^CODE\s+STATUS/);
    assert.match(list.text, /CLI1\s+Paused\s+docs\/cli1\s+true\s+false\s+0\s+0\s+0/);
    assert.deepEqual(
      (await run('supplier list', {}, true)).json.map((s: { code: string }) => s.code),
      ['CLI1'],
    );
    assert.match((await run('supplier set-status CLI1 Ongoing')).text, /CLI1 is now Ongoing/);
    const set = await run('supplier set CLI1', { 'dry-run-only': 'true', 'document-root': 'other' }, true);
    assert.deepEqual(set.json.config, { send_welcome_emails: true, dry_run_only: true });
    assert.equal(set.json.document_root, 'other');
  });

  it('reports API errors and usage errors', async () => {
    await assert.rejects(run('supplier create CLI1'), /already_exists/);
    await assert.rejects(run('supplier set-status CLI1 Sleeping'), /status/);
    await assert.rejects(run('supplier show NOPE'), /404 not_found/);
    assert.equal((await run('supplier frobnicate')).code, 2);
    assert.equal((await run('supplier set CLI1', { 'dry-run-only': 'maybe' })).code, 2);
  });

  it('supplier set --pause-when-errored WINDOW:SHARE, or off', async () => {
    await run('supplier create CLI3', { 'pause-when-errored': '200:0.2' });
    const shown = await run('supplier show CLI3', {}, true);
    assert.deepEqual(shown.json.config.pause_when_errored, { window: 200, share: 0.2 });
    const off = await run('supplier set CLI3', { 'pause-when-errored': 'off' }, true);
    assert.equal(off.json.config.pause_when_errored, null);
    assert.equal((await run('supplier set CLI3', { 'pause-when-errored': '200' })).code, 2);
    await assert.rejects(
      run('supplier set CLI3', { 'pause-when-errored': '5:0.2' }),
      /config\.pause_when_errored\.window/,
    );
  });

  it('apikey create / list / revoke', async () => {
    await run('supplier create CLI2');
    const created = await run('apikey create nightly', { suppliers: 'CLI1,CLI2' }, true);
    assert.match(created.json.key, /^ferry_/);
    assert.deepEqual(created.json.import_suppliers, ['CLI1', 'CLI2']);
    const human = await run('apikey create everything', { suppliers: '*' });
    assert.match(human.text, /Key \(shown only now\):\n\n {2}ferry_/);
    const list = await run('apikey list');
    assert.match(list.text, /nightly/);
    assert.ok(!list.text.includes(created.json.key));
    assert.match((await run(`apikey revoke ${created.json.id}`)).text, /Revoked API key/);
    const after = (await run('apikey list', {}, true)).json.find(
      (k: { id: string }) => k.id === created.json.id,
    );
    assert.ok(after.revoked_at);
    assert.equal((await run('apikey create nameless')).code, 2);
  });

  it('process show / cancel / retry', async () => {
    await stageProcess(t.db, 'CLI1', 'acc-1', 'ERRORED');
    await stageProcess(t.db, 'CLI1', 'acc-2', 'PENDING');
    const shown = await run('process show CLI1 acc-1');
    assert.match(shown.text, /status\s+ERRORED/);
    assert.match(shown.text, /EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED/);
    // The stored payload, as indented JSON after the events.
    const payload = shown.text.split('\n\nPayload:\n')[1];
    assert.deepEqual(JSON.parse(payload), { import_supplier: 'CLI1', external_account_number: 'acc-1' });
    assert.match(payload, /^\{\n {2}"import_supplier": "CLI1",/);
    assert.equal((await run('process retry CLI1 acc-1', {}, true)).json.status, 'PENDING');
    assert.equal((await run('process cancel CLI1 acc-2', {}, true)).json.status, 'CANCELLED');
    await assert.rejects(run('process retry CLI1 acc-2'), /invalid_state_transition/);
  });

  it('runs as the real `ferry` binary', async () => {
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ['bin/ferry.js', 'supplier', 'list', '--json'], {
        env: { ...process.env, ...env },
      });
      let stdout = '';
      child.stdout.on('data', (d) => {
        stdout += d;
      });
      child.on('exit', (code) => resolve({ code, stdout }));
    });
    assert.equal(out.code, 0);
    assert.ok(JSON.parse(out.stdout).some((s: { code: string }) => s.code === 'CLI1'));
  });
});

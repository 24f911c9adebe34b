import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startVendorSimulator, type VendorSimulator } from '../dev/vendor-simulator/vendor-simulator.ts';

/**
 * Runs the README's "First calls" block line by line against `ferry serve` on the embedded
 * database, so the front door stays true.
 */
describe('README walkthrough', {
  skip: Boolean(process.env.DATABASE_URL) && 'runs once, on the embedded database',
}, () => {
  let dir: string;
  let server: ChildProcess;
  let port: number;
  let simulator: VendorSimulator;
  const root = resolve('.');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ferry-readme-'));
    cpSync(join(root, 'examples'), join(dir, 'examples'), { recursive: true });
    port = 20000 + Math.floor(Math.random() * 20000);
    simulator = await startVendorSimulator({ port: 0 });
    server = spawn(process.execPath, [join(root, 'bin/ferry.js'), 'serve'], {
      cwd: dir,
      env: {
        ...process.env,
        ...simulator.env,
        PORT: String(port),
        DATA_DIR: join(dir, 'data'),
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    server.stdout!.on('data', (d) => {
      out += d;
    });
    // Start-up migrates a fresh embedded database: give a loaded machine a minute.
    let ready = false;
    for (let i = 0; i < 300 && !ready; i++) {
      try {
        ready = (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
      } catch {}
      if (!ready) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(ready, 'ferry serve did not become ready within 60 s');
    assert.match(out, /Ferry generated an operator API key/);
    // Only where it is: the key stays in its file.
    const key = readFileSync(join(dir, 'data', 'operator-api-key'), 'utf8').trim();
    assert.ok(!out.includes(key), 'the operator key was printed');
  });
  after(async () => {
    server?.kill('SIGTERM');
    await simulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('works line by line', async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const block = /## First calls[\s\S]*?Then, from the repository folder:\s*```sh\n([\s\S]*?)```/.exec(
      readme,
    )![1];
    const script = `set -euo pipefail\n${block.replace('http://127.0.0.1:8080', `http://127.0.0.1:${port}`)}`;
    // Not spawnSync: the vendor simulator answers from this process's event loop.
    const res = await new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
      const bash = spawn('bash', ['-c', script], { cwd: dir, timeout: 60_000 });
      let stdout = '';
      let stderr = '';
      bash.stdout.on('data', (d) => {
        stdout += d;
      });
      bash.stderr.on('data', (d) => {
        stderr += d;
      });
      bash.on('close', (status) => done({ status, stdout, stderr }));
    });
    assert.equal(res.status, 0, res.stderr);
    const out = res.stdout;
    assert.match(out, /"code":"ACME","status":"Ongoing"/);
    assert.match(out, /^\[\]$/m);
    assert.match(out, /"code":"not_found"/);
    assert.match(out, /^\{\}$/m);
    assert.match(out, /"code":"invalid_phone_number","attr":"customers.0.landline"/);
    assert.match(out, /"status":"PROCESSED","service_identifier":"A-[0-9A-F]{8}"/);
    assert.match(out, /\{"status":"COMPLETED","service_account_number":"A-[0-9A-F]{8}"\}/);
    assert.match(out, /"status":"NOTE_CREATION_SUCCESS"/);
    assert.match(out, /"TRANSACTION_ADDED_TO_ACCOUNT".*"amount":"45.00".*"transaction_date":"2024-11-01"/);
    assert.match(out, /"statement_id":"ST-2024-10"/);
    assert.match(out, /\{"service_account_number":"A-[0-9A-F]{8}","reference":"MD000SIMACTIVE"\}/);
  });
});

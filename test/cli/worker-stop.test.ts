/**
 * `ferry worker` says when it stops: one log line, once its worker, webhook sender and database
 * are closed, on SIGTERM (and SIGINT), then exit 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';

const ROOT = resolve('.');

describe('ferry worker stopping', {
  skip:
    Boolean(process.env.DATABASE_URL) &&
    'a process on the embedded database; runs once, without DATABASE_URL',
}, () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`logs one line when it stops on ${signal}, then exits 0`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'ferry-worker-stop-'));
      dirs.push(dataDir);
      const child = spawn(process.execPath, [join(ROOT, 'bin/ferry.js'), 'worker'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'info', SMTP_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
      });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      const deadline = Date.now() + 60_000;
      while (!out.includes('account-creation worker started')) {
        if (Date.now() > deadline || child.exitCode !== null) {
          child.kill('SIGKILL');
          assert.fail(`the worker did not start: ${out}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(!out.includes('worker stopped'), 'nothing said before the signal');
      child.kill(signal);
      assert.equal(await exited, 0);
      const stopped = out
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as { msg: string; signal?: string; level: number })
        .filter((line) => line.msg === 'worker stopped');
      assert.equal(stopped.length, 1, out);
      assert.equal(stopped[0].signal, signal);
      assert.equal(stopped[0].level, 30, 'info');
    });
  }
});

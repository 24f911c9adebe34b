import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LOCK_FILE_NAME } from '../../src/infra/db/data-dir-lock.ts';

const ROOT = resolve('.');
const WORKER_STARTED = 'account-creation worker started';

interface Ferry {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

/** `ferry <args>` as a real process on the embedded database in `dataDir`. */
function ferry(args: string[], dataDir: string, port: number): Ferry {
  const child = spawn(process.execPath, [join(ROOT, 'bin/ferry.js'), ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      OPERATOR_API_KEY: 'process-test-operator-key',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function waitReady(port: number, f: Ferry): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (f.child.exitCode !== null) throw new Error(`ferry exited early: ${f.err()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('ferry did not become ready');
}

/** Resolves with the exit code, or fails when the process is still running after `ms`. */
async function exitWithin(f: Ferry, ms: number): Promise<number | null> {
  const timeout = new Promise<'running'>((r) => setTimeout(() => r('running'), ms).unref());
  const result = await Promise.race([f.exited, timeout]);
  if (result === 'running') {
    f.child.kill('SIGKILL');
    assert.fail(`still running after ${ms} ms; stdout: ${f.out().slice(-500)} stderr: ${f.err()}`);
  }
  return result;
}

const freePort = () => 20000 + Math.floor(Math.random() * 20000);
const lockPid = (dataDir: string) =>
  Number(readFileSync(join(dataDir, LOCK_FILE_NAME), 'utf8').split('\n')[0]);

describe('the embedded database serves one process', {
  skip: Boolean(process.env.DATABASE_URL) && 'about the embedded database; runs once, without DATABASE_URL',
}, () => {
  let dir: string;
  const running: Ferry[] = [];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ferry-process-'));
  });
  after(async () => {
    for (const f of running) f.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second process on the same DATA_DIR with one line naming the holder, and takes over after a crash', async () => {
    const dataDir = join(dir, 'shared');
    const port = freePort();
    const first = ferry(['serve'], dataDir, port);
    running.push(first);
    await waitReady(port, first);
    assert.equal(lockPid(dataDir), first.child.pid);
    assert.ok(first.out().includes(WORKER_STARTED), 'the first one runs its worker');

    const others = [
      ferry(['serve'], dataDir, freePort()),
      ferry(['worker'], dataDir, freePort()),
      ferry(['db', 'migrate'], dataDir, freePort()),
    ];
    running.push(...others);
    for (const other of others) {
      const code = await exitWithin(other, 60_000);
      assert.notEqual(code, 0);
      const lines = other.err().trim().split('\n');
      assert.equal(lines.length, 1, other.err());
      assert.match(lines[0], new RegExp(`in use by process ${first.child.pid}\\b`));
      assert.match(lines[0], /DATABASE_URL/);
      assert.ok(!other.out().includes(WORKER_STARTED));
    }
    // The holder is unharmed.
    assert.ok((await fetch(`http://127.0.0.1:${port}/readyz`)).ok);
    assert.equal(lockPid(dataDir), first.child.pid);

    // A crash leaves the lock behind, naming a process that is gone: the next start takes it over.
    first.child.kill('SIGKILL');
    await first.exited;
    assert.equal(lockPid(dataDir), first.child.pid);
    const next = ferry(['serve'], dataDir, port);
    running.push(next);
    await waitReady(port, next);
    assert.equal(lockPid(dataDir), next.child.pid);
    // A clean stop removes the lock.
    next.child.kill('SIGTERM');
    assert.equal(await exitWithin(next, 30_000), 0);
    assert.equal(existsSync(join(dataDir, LOCK_FILE_NAME)), false);
  });

  it('ends with a non-zero exit, having started nothing, when the port is in use', async () => {
    const port = freePort();
    const occupier: Server = createServer();
    await new Promise<void>((r) => occupier.listen(port, '127.0.0.1', r));
    try {
      const dataDir = join(dir, 'port-in-use');
      const f = ferry(['serve'], dataDir, port);
      running.push(f);
      const code = await exitWithin(f, 60_000);
      assert.notEqual(code, 0);
      assert.match(f.err(), new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
      assert.equal(f.err().trim().split('\n').length, 1, f.err());
      assert.ok(!f.out().includes(WORKER_STARTED), 'no worker was started');
      assert.equal(existsSync(join(dataDir, LOCK_FILE_NAME)), false, 'the database was released');
      assert.equal(existsSync(dataDir), false, 'the port was checked before DATA_DIR was created');
    } finally {
      await new Promise((r) => occupier.close(r));
    }
  });
});

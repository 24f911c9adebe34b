import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { alive, descendants } from '../helpers/child-processes.ts';
import { freePort } from '../helpers/ports.ts';

const ROOT = resolve('.');

async function portAnswers(port: number): Promise<boolean> {
  return new Promise((r) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      r(true);
    });
    socket.once('error', () => r(false));
  });
}

async function until(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return condition();
}

describe('npm start', {
  skip:
    Boolean(process.env.DATABASE_URL) &&
    'about the process, not the database; runs once, on the embedded database',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'ferry-npm-start-'));
  let npm: ChildProcess | undefined;
  let below: number[] = [];
  after(() => {
    for (const pid of [...below, npm?.pid]) {
      try {
        if (pid) process.kill(pid, 'SIGKILL');
      } catch {} // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the compiled dist/ in node itself, and SIGTERM to the npm process stops it', {
    timeout: 180_000,
  }, async () => {
    const port = await freePort();
    const env = { PORT: String(port), DATA_DIR: join(dir, 'data'), DATABASE_URL: '', LOG_LEVEL: 'warn' };
    npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [npm.stdout!, npm.stderr!]) stream.on('data', (d) => (output += d));
    const exited = new Promise<void>((r) => npm!.once('exit', () => r()));

    // Start-up may build dist/ first (when src/ changed) and migrates a fresh database.
    const up = await until(async () => {
      assert.equal(npm!.exitCode, null, `npm start exited early:\n${output}`);
      return (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.ok ?? false;
    }, 150_000);
    assert.ok(up, `/healthz did not answer:\n${output}`);

    const processes = descendants(npm.pid!);
    below = processes.map((p) => p.pid);
    assert.ok(
      processes.some((p) => p.cmdline.join(' ').endsWith('bin/ferry.js serve')),
      JSON.stringify(processes),
    );
    const reference = await fetch(`http://127.0.0.1:${port}/docs/redoc.standalone.js`);
    assert.equal(reference.status, 200, 'the API reference assets resolve from dist/');
    await reference.arrayBuffer();

    process.kill(npm.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000).unref())]);
    assert.notEqual(npm.exitCode ?? npm.signalCode, null, 'npm start ended');
    assert.ok(await until(async () => !(await portAnswers(port)), 10_000), 'the port is closed');
    assert.deepEqual(
      below.filter((pid) => alive(pid)),
      [],
      'no process npm started is left running',
    );
    // npm ran the service as its own child: no shell or loader process in between to swallow a signal.
    assert.deepEqual(
      processes.map((p) => p.cmdline.slice(1)),
      [['bin/ferry.js', 'serve']],
      JSON.stringify(processes),
    );
  });
});

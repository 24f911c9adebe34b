import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { stopWhenNpxParentEnds } from '../../src/cli/npx-parent.ts';

const ROOT = resolve('.');

/** Whether something still answers at `url` (the simulator answers 404 to `/`). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

describe('`npx ferry dev vendor-sim` and signals', () => {
  const started: ChildProcess[] = [];
  after(() => {
    // Its own process group (detached): whatever is left of npx, sh and node goes at once.
    for (const child of started) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }
  });

  /** `npx ferry dev vendor-sim` from the checkout (bin/ferry.js, dist/), and the URL it serves. */
  async function startThroughNpx(): Promise<{ npx: ChildProcess; url: string }> {
    const npx = spawn('npx', ['ferry', 'dev', 'vendor-sim', '--port', '0'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(npx);
    let out = '';
    let err = '';
    npx.stderr!.on('data', (d) => {
      err += d;
    });
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL after 60 s: ${out}${err}`)), 60_000);
      npx.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          done(m[1]);
        }
      });
      npx.on('exit', (code) => fail(new Error(`npx exited (${code}) before listening: ${out}${err}`)));
    });
    return { npx, url };
  }

  async function stopsWithin(url: string, ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (!(await answers(url))) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  }

  it('stops the simulator when npx alone gets SIGTERM', async () => {
    const { npx, url } = await startThroughNpx();
    assert.ok(await answers(url), 'the simulator answers');
    npx.kill('SIGTERM');
    assert.ok(await stopsWithin(url, 10_000), 'the simulator still answers 10 s after SIGTERM to npx');
  });

  it('stops the simulator on Ctrl-C (SIGINT to the foreground process group, as a terminal sends it)', async () => {
    const { npx, url } = await startThroughNpx();
    assert.ok(await answers(url), 'the simulator answers');
    process.kill(-npx.pid!, 'SIGINT');
    assert.ok(await stopsWithin(url, 10_000), 'the simulator still answers 10 s after Ctrl-C');
  });

  it('watches the parent only under npm exec', () => {
    assert.equal(stopWhenNpxParentEnds({}), null);
    assert.equal(stopWhenNpxParentEnds({ npm_command: 'start' }), null);
    const stop = stopWhenNpxParentEnds({ npm_command: 'exec' });
    assert.equal(typeof stop, 'function');
    stop?.();
  });
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { runVendorSimulatorDevTool } from '../../src/cli/dev-tools.ts';

const ROOT = resolve('.');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Decision 0063: the vendor simulator is a development tool in dev/, never in the build. */
describe('ferry dev vendor-sim, a development tool', () => {
  const stderr = () => {
    const lines: string[] = [];
    return { lines, write: (text: string) => lines.push(text) };
  };

  it('is not in the build: dist/ holds none of the simulator (npm test builds dist/ first)', () => {
    assert.ok(existsSync(join(ROOT, 'dist/src/cli/dev-tools.js')), 'dist/ is built');
    const shipped = filesUnder(join(ROOT, 'dist')).filter((path) => /vendor-simulator/.test(path));
    assert.deepEqual(shipped, []);
    assert.equal(existsSync(join(ROOT, 'dist/dev')), false);
  });

  it('runs from the compiled CLI (bin/ferry.js) on a checkout, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/ferry.js'), 'dev', 'vendor-sim', '--port', '0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const url = await new Promise<string>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL: ${out}`)), 60_000);
      child.stdout.on('data', () => {
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          done(m[1]);
        }
      });
      void exited.then((code) => fail(new Error(`exited (${code}) before listening: ${out}`)));
    });
    assert.ok((await fetch(url)).status > 0, 'the simulator answers');
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });

  it('says in one line that it needs a checkout when dev/ is not there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ferry-no-checkout-'));
    try {
      const err = stderr();
      assert.equal(await runVendorSimulatorDevTool([], { from: dir, stderr: err }), 1);
      assert.equal(err.lines.length, 1);
      assert.match(err.lines[0], /development tool: it runs from a checkout of the repository/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says in one line that it needs the dev dependencies when tsx is not installed', async () => {
    const err = stderr();
    const missing = Object.assign(new Error("Cannot find package 'tsx'"), { code: 'ERR_MODULE_NOT_FOUND' });
    const code = await runVendorSimulatorDevTool([], {
      loadTsImport: () => Promise.reject(missing),
      stderr: err,
    });
    assert.equal(code, 1);
    assert.deepEqual(err.lines, [
      'ferry dev vendor-sim needs the dev dependencies (tsx): run `npm ci` without --omit=dev.\n',
    ]);
  });
});

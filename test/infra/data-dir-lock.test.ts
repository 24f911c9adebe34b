import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DataDirLockedError, LOCK_FILE_NAME, lockDataDir } from '../../src/infra/db/data-dir-lock.ts';

/** A pid that belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('exit', r));
  return child.pid!;
}

describe('the DATA_DIR lock', () => {
  let dir: string;
  let n = 0;
  const freshDir = () => {
    const d = join(dir, String(n++));
    mkdirSync(d);
    return d;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ferry-lock-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names this process in the lock file while held and removes it on release', async () => {
    const d = freshDir();
    const lock = await lockDataDir(d);
    const [pid] = readFileSync(join(d, LOCK_FILE_NAME), 'utf8').split('\n');
    assert.equal(Number(pid), process.pid);
    lock.release();
    assert.equal(existsSync(join(d, LOCK_FILE_NAME)), false);
    lock.release();
    (await lockDataDir(d)).release();
  });

  it('refuses a second holder in the same process', async () => {
    const d = freshDir();
    const lock = await lockDataDir(d);
    try {
      await assert.rejects(lockDataDir(d), (err: unknown) => {
        assert.ok(err instanceof DataDirLockedError);
        assert.equal(err.holderPid, process.pid);
        return true;
      });
    } finally {
      lock.release();
    }
  });

  it('refuses while another live process holds it, naming that pid in one line', async () => {
    const d = freshDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(d, LOCK_FILE_NAME), `${holder.pid}\n`);
      await assert.rejects(lockDataDir(d), (err: unknown) => {
        assert.ok(err instanceof DataDirLockedError);
        assert.equal(err.holderPid, holder.pid);
        assert.match(err.message, new RegExp(`process ${holder.pid}\\b`));
        assert.match(err.message, /DATABASE_URL/);
        assert.doesNotMatch(err.message, /\n/);
        return true;
      });
      assert.equal(readFileSync(join(d, LOCK_FILE_NAME), 'utf8'), `${holder.pid}\n`, 'left as it was');
    } finally {
      holder.kill();
    }
  });

  it('takes over a stale lock: holder gone, pid reused by another process, or unreadable', async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const stale = [`${await deadPid()}\n`, 'not a pid\n', ''];
      // Linux knows each process's start time: a live pid with another start time is a reuse.
      if (existsSync(`/proc/${live.pid}/stat`)) stale.push(`${live.pid}\n1\n`);
      for (const content of stale) {
        const d = freshDir();
        writeFileSync(join(d, LOCK_FILE_NAME), content);
        const lock = await lockDataDir(d);
        assert.equal(
          Number(readFileSync(join(d, LOCK_FILE_NAME), 'utf8').split('\n')[0]),
          process.pid,
          content,
        );
        lock.release();
      }
    } finally {
      live.kill();
    }
  });

  it('does not remove a lock file that is no longer its own', async () => {
    const d = freshDir();
    const lock = await lockDataDir(d);
    writeFileSync(join(d, LOCK_FILE_NAME), '1\n');
    lock.release();
    assert.equal(readFileSync(join(d, LOCK_FILE_NAME), 'utf8'), '1\n');
  });
});

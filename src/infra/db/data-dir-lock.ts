import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite serves one process: two processes opening one DATA_DIR would corrupt it. The process
 * that opens the embedded database holds `DATA_DIR/ferry.lock`, which names its pid (first line)
 * and, on Linux, its start time (second line), so that a pid reused by an unrelated process after
 * a crash is not taken for the holder. A lock whose holder is gone is stale and taken over.
 */
export const LOCK_FILE_NAME = 'ferry.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by process ${holderPid} (lock file ${join(dataDir, LOCK_FILE_NAME)}): ` +
        'the embedded database serves one process; stop that one, or set DATABASE_URL to share a PostgreSQL server.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours; safe to call more than once. */
  release(): void;
}

/** Lock files this process holds: a second open in the same process is refused as well. */
const heldHere = new Set<string>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process's start time in clock ticks since boot (Linux), or null where /proc has none. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: fields resume after the last `)`.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

interface Holder {
  pid: number;
  startTime: string | null;
}

function parseHolder(text: string): Holder | null {
  const [pidLine, startLine] = text.split('\n');
  if (!/^\d+$/.test(pidLine ?? '')) return null;
  return { pid: Number(pidLine), startTime: startLine ? startLine : null };
}

/** null: no lock file; 'unreadable': present but not (yet) a lock we understand. */
function readHolder(file: string): Holder | null | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return parseHolder(text) ?? 'unreadable';
}

function isAlive(holder: Holder): boolean {
  // Our own pid in a lock we do not hold: a previous process of ours (a container restarted).
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTimeOf(holder.pid);
  return holder.startTime === null || now === null || now === holder.startTime;
}

/**
 * Takes the lock on `dataDir` (which must exist) or throws DataDirLockedError naming the holder.
 * Creation is atomic (`wx`); a stale lock is replaced by an atomic rename, then re-read after a
 * moment, so that of two processes taking over one stale lock together only one goes on.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = join(dataDir, LOCK_FILE_NAME);
  if (heldHere.has(file)) throw new DataDirLockedError(dataDir, process.pid);
  const mine = `${process.pid}\n${startTimeOf(process.pid) ?? ''}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(file, mine, { flag: 'wx' });
      return hold(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = readHolder(file);
    if (holder === 'unreadable') {
      // Perhaps created an instant ago and not yet written: look again before calling it stale.
      await sleep(100);
      holder = readHolder(file);
    }
    if (holder === null) continue; // released meanwhile: try again
    if (holder !== 'unreadable' && isAlive(holder)) throw new DataDirLockedError(dataDir, holder.pid);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, mine);
    renameSync(temporary, file);
    await sleep(100);
    if (readHolder(file) !== null && readFileSync(file, 'utf8') === mine) return hold(file);
    // Another process took it over at the same moment and won: the next round names it.
  }
  const last = readHolder(file);
  throw new DataDirLockedError(dataDir, last && last !== 'unreadable' ? last.pid : -1);

  function hold(lockFile: string): DataDirLock {
    heldHere.add(lockFile);
    const release = () => {
      process.off('exit', release);
      if (!heldHere.delete(lockFile)) return;
      try {
        if (readFileSync(lockFile, 'utf8') === mine) unlinkSync(lockFile);
      } catch {
        // Already gone.
      }
    };
    // A process that exits without closing its database leaves no lock behind either.
    process.on('exit', release);
    return { file: lockFile, release };
  }
}

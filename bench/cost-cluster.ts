/**
 * A private PostgreSQL cluster for the cost count (bench/cost.ts): its own statistics, with
 * pg_stat_statements loaded, which the shared server does not preload and must not be restarted
 * for. Made with the installed server's `initdb` in a temporary directory, listening on a Unix
 * socket there only, durability settings left at their defaults (WAL counts mean what they mean
 * in production); stopped and removed at the end, also when the bench fails, is interrupted or
 * is stopped by its watchdog.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { WalShare } from './cost-stats.ts';

/** The step cannot run on this machine; its message is the one line the bench prints. */
export class CostUnavailable extends Error {}

/** The newest installed server's binaries (Debian's layout: /usr/lib/postgresql/<version>/bin). */
function serverBin(): { bin: string; lib: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new CostUnavailable(`--cost needs PostgreSQL's initdb (none under ${root}/<version>/bin)`);
  const bin = join(root, versions[0], 'bin');
  const lib = join(root, versions[0], 'lib');
  if (!existsSync(join(lib, 'pg_stat_statements.so')))
    throw new CostUnavailable(`--cost needs the pg_stat_statements module (not in ${lib})`);
  return { bin, lib };
}

/** Clock ticks a second in /proc's counters. */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  ppid: number;
  /** utime + stime: the process's own CPU. */
  own: number;
  /** cutime + cstime: its children's, once it has reaped them. */
  reaped: number;
}

function readStat(pid: number | 'self'): Stat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the name's closing parenthesis, from the 3rd (state): ppid is the 4th,
    // utime, stime, cutime and cstime the 14th to 17th.
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { ppid: f[1], own: f[11] + f[12], reaped: f[13] + f[14] };
  } catch {
    return null; // gone meanwhile
  }
}

/** The live children of `parent`, by process id. */
export function childPids(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && readStat(Number(entry))?.ppid === parent)
    .map(Number);
}

/**
 * CPU ticks of a process tree so far: the root and every live descendant, each with what it has
 * reaped of its own children (a PostgreSQL backend that ended counts in the postmaster's).
 */
export function treeTicks(root: number): number {
  const children = new Map<number, number[]>();
  const stats = new Map<number, Stat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = readStat(Number(entry));
    if (!s) continue;
    stats.set(Number(entry), s);
    children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(entry)]);
  }
  let ticks = 0;
  const todo = [root];
  while (todo.length > 0) {
    const pid = todo.pop()!;
    const s = stats.get(pid);
    if (!s) continue;
    ticks += s.own + s.reaped;
    todo.push(...(children.get(pid) ?? []));
  }
  return ticks;
}

/** CPU ticks of this process's children that have ended and been reaped (the pushes). */
export const reapedTicks = () => readStat('self')?.reaped ?? 0;

export interface Cluster {
  /** A connection string for `user` to `database`, through the cluster's socket. */
  url(user: string, database: string): string;
  /** The postmaster's process id, the root of the cluster's processes. */
  pid(): number;
  version: string;
  /**
   * The WAL between two positions by record type (pg_waldump --stats=record), the most bytes
   * first; null when pg_waldump cannot read that far back (its segments recycled after checkpoints).
   */
  walByRecordType(from: string, to: string): WalRecordType[] | null;
  /**
   * The same WAL by the relation each record changes (its first block's), keyed
   * `<database oid>/<relfilenode>`, "" for a record of none; read from pg_waldump's listing as it
   * streams (a run's is hundreds of megabytes). Null when pg_waldump cannot read it.
   */
  walByRelation(from: string, to: string): Promise<Map<string, WalShare> | null>;
  /** Stops the cluster and removes its directory; safe to call more than once. */
  remove(): void;
}

/** One line of pg_waldump's statistics: its records and their bytes, full-page images apart. */
export interface WalRecordType {
  /** Resource manager and record, as pg_waldump names them: Heap/INSERT, Btree/INSERT_LEAF. */
  type: string;
  records: number;
  record_bytes: number;
  fpi_bytes: number;
}

/** The record-type lines of `pg_waldump --stats=record`: name, then count, record size, FPI size, each with its share. */
export function parseWalStats(text: string): WalRecordType[] {
  const share = String.raw`\s+\(\s*[\d.]+\)`;
  const line = new RegExp(String.raw`^(\w+/\S+)\s+(\d+)${share}\s+(\d+)${share}\s+(\d+)${share}`);
  const out: WalRecordType[] = [];
  for (const l of text.split('\n')) {
    const m = line.exec(l);
    if (!m || m[2] === '0') continue;
    out.push({ type: m[1], records: Number(m[2]), record_bytes: Number(m[3]), fpi_bytes: Number(m[4]) });
  }
  return out.sort((a, b) => b.record_bytes + b.fpi_bytes - (a.record_bytes + a.fpi_bytes));
}

const run = (cmd: string, args: string[], asUser: string | null) =>
  asUser
    ? execFileSync('runuser', ['-u', asUser, '--', cmd, ...args], { encoding: 'utf8', stdio: 'pipe' })
    : execFileSync(cmd, args, { encoding: 'utf8', stdio: 'pipe' });

/** Makes and starts the cluster; removes it again if starting fails. */
export function startCluster(port: number): Cluster {
  const { bin } = serverBin();
  // initdb refuses to run as root: the cluster is then the `postgres` user's, as the packages make it.
  const asUser = process.getuid?.() === 0 ? 'postgres' : null;
  const dir = mkdtempSync(join(tmpdir(), 'ferry-cost-'));
  const data = join(dir, 'data');
  let removed = false;
  const stop = (mode: string) =>
    run(join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', mode, '-t', '20'], asUser);
  const remove = () => {
    if (removed) return;
    removed = true;
    if (existsSync(join(data, 'postmaster.pid'))) {
      try {
        stop('fast');
      } catch {
        try {
          stop('immediate');
        } catch {}
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (asUser) {
      const uid = Number(run('id', ['-u', asUser], null).trim());
      const gid = Number(run('id', ['-g', asUser], null).trim());
      chownSync(dir, uid, gid);
    }
    run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
      asUser,
    );
    // Only what the count needs differs from the defaults: the statistics module, and connections
    // for 8 API and 8 worker processes with their pools.
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=''",
      '-c shared_preload_libraries=pg_stat_statements',
      '-c pg_stat_statements.track=all',
      '-c pg_stat_statements.track_planning=on',
      '-c max_connections=500',
    ].join(' ');
    run(
      join(bin, 'pg_ctl'),
      ['start', '-D', data, '-w', '-t', '60', '-l', join(dir, 'log'), '-o', options],
      asUser,
    );
    const version = /\(PostgreSQL\) (\S+)/.exec(run(join(bin, 'postgres'), ['--version'], null))?.[1] ?? '?';
    return {
      url: (user, database) =>
        `postgres://${user}@localhost:${port}/${database}?host=${encodeURIComponent(dir)}`,
      pid: () => Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
      version,
      walByRecordType(from, to) {
        try {
          // As root too: reading the cluster's files needs no more than root has.
          const text = run(
            join(bin, 'pg_waldump'),
            ['--stats=record', '-p', join(data, 'pg_wal'), '-s', from, '-e', to],
            null,
          );
          return parseWalStats(text);
        } catch {
          return null;
        }
      },
      async walByRelation(from, to) {
        const dump = spawn(join(bin, 'pg_waldump'), ['-p', join(data, 'pg_wal'), '-s', from, '-e', to], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        const exited = new Promise<number | null>((resolve) => dump.on('close', resolve));
        const shares = new Map<string, WalShare>();
        for await (const l of createInterface({ input: dump.stdout })) {
          const len = /len \(rec\/tot\):\s*\d+\/\s*(\d+)/.exec(l);
          if (!len) continue;
          const key = /rel \d+\/(\d+\/\d+)/.exec(l)?.[1] ?? '';
          const s = shares.get(key) ?? { records: 0, bytes: 0 };
          s.records++;
          s.bytes += Number(len[1]);
          shares.set(key, s);
        }
        return (await exited) === 0 ? shares : null;
      },
      remove,
    };
  } catch (err) {
    const log = existsSync(join(dir, 'log'))
      ? readFileSync(join(dir, 'log'), 'utf8').trim().split('\n').at(-1)
      : '';
    remove();
    const e = err as { stderr?: string; message: string };
    throw new CostUnavailable(
      `--cost could not start a private PostgreSQL cluster: ${(e.stderr || e.message).trim().split('\n')[0]}${log ? ` (${log})` : ''}`,
    );
  }
}

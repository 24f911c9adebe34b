/**
 * CPU time from /proc (Linux), for the benchmarks that say where the CPU went: the webhook cost
 * (bench/webhook-cost.ts) and the scaling series' push sampler (bench/push-sampler.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second in /proc's counters: 100 on every Linux this runs on. */
export const TICKS_PER_SECOND = 100;

/** Busy CPU ticks of the whole machine (all but idle and iowait). */
export function machineTicks(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return total - f[3] - f[4];
}

export interface ProcessTicks {
  pid: number;
  /** The command's name (/proc/<pid>/comm), e.g. `postgres` or `node`. */
  name: string;
  /** User and system ticks so far. */
  ticks: number;
}

/**
 * Every live process that `match` keeps, keyed by pid and start time: a pid the kernel reuses
 * for another process is another key, so its ticks are never taken for the first one's.
 */
export function processTicks(
  match: (pid: number, name: string) => boolean = () => true,
): Map<string, ProcessTicks> {
  const out = new Map<string, ProcessTicks>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const pid = Number(entry);
      if (!match(pid, name)) continue;
      // The fields after the name's closing parenthesis, from the 3rd: utime and stime are the
      // 14th and 15th, the start time the 22nd.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${entry}@${f[19]}`, { pid, name, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // The process ended while we looked.
    }
  }
  return out;
}

/** Ticks spent by `after`'s processes since `before`; one that started in between counts from zero. */
export const spent = (before: Map<string, ProcessTicks>, after: Map<string, ProcessTicks>) =>
  [...after].reduce((sum, [key, p]) => sum + p.ticks - (before.get(key)?.ticks ?? 0), 0);

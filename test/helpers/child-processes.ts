import { readdirSync, readFileSync } from 'node:fs';

/** Every process now, from /proc: its parent and its state (Z for a zombie). */
function processTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // After the command name (which may hold spaces): the state, then the parent's pid.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(name), { ppid: Number(ppid), state });
    } catch {} // gone meanwhile
  }
  return table;
}

/** The live (not zombie) processes whose parent is `parent`. */
export function childPids(parent: number): number[] {
  return [...processTable()].filter(([, p]) => p.ppid === parent && p.state !== 'Z').map(([pid]) => pid);
}

/** The processes below `pid`, zombies included, each with its command line. */
export function descendants(pid: number): { pid: number; cmdline: string[] }[] {
  const table = processTable();
  const found: { pid: number; cmdline: string[] }[] = [];
  const walk = (parent: number) => {
    for (const [child, { ppid }] of table) {
      if (ppid !== parent) continue;
      try {
        found.push({
          pid: child,
          cmdline: readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').slice(0, -1),
        });
      } catch {}
      walk(child);
    }
  };
  walk(pid);
  return found;
}

/** Running, not merely a zombie waiting for its parent to collect it. */
export function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

import { readdirSync, readFileSync } from 'node:fs';

/** The live (not zombie) processes whose parent is `parent`, from /proc. */
export function childPids(parent: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // After the command name (which may hold spaces): the state, then the parent's pid.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && Number(ppid) === parent) found.push(Number(name));
    } catch {} // gone meanwhile
  }
  return found;
}

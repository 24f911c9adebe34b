/**
 * The `ferry` commands for help and suggestions: each command's usage line and what it does,
 * `ferry <command> --help`, and "did you mean" for a mistyped one.
 */
import commands from './commands.json' with { type: 'json' };

export interface CommandHelp {
  /** The words that name it: `process list`. */
  name: string;
  usage: string;
  summary: string;
  options?: string[];
}

const OPERATOR_ENV = 'Talks to FERRY_URL (default http://127.0.0.1:8080) with FERRY_OPERATOR_API_KEY.';

/** Every command: its words, usage line, summary and, for some, options (data, in commands.json). */
export const COMMANDS: readonly CommandHelp[] = commands;

const GROUPS = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
const ADMIN_GROUPS = new Set(['supplier', 'apikey', 'process', 'wave', 'webhook']);

/** Help for `ferry <words> --help`: one command, or every command of a group; null when none. */
export function commandHelp(words: string[]): string | null {
  const [group, action] = words;
  const exact = COMMANDS.find((c) => c.name === `${group} ${action ?? ''}`.trim());
  const shown = exact ? [exact] : COMMANDS.filter((c) => c.name.split(' ')[0] === group);
  if (shown.length === 0) return null;
  const lines = shown.flatMap((c) => [
    `Usage: ferry ${c.usage}`,
    `  ${c.summary}`,
    ...(exact ? (c.options ?? []).map((o) => `  ${o}`) : []),
    '',
  ]);
  if (ADMIN_GROUPS.has(group)) lines.push(`${OPERATOR_ENV} Add --json for JSON output.`, '');
  return lines.join('\n');
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const dist = editDistance(word.toLowerCase(), c);
    if (dist < bestDistance) [best, bestDistance] = [c, dist];
  }
  return best;
}

/** "did you mean" for mistyped command words: the closest command, or undefined. */
export function suggestCommand(words: string[]): string | undefined {
  const [group, action] = words;
  const g = GROUPS.includes(group) ? group : closest(group ?? '', GROUPS);
  if (!g) return undefined;
  const actions = COMMANDS.filter((c) => c.name.startsWith(`${g} `)).map((c) => c.name.split(' ')[1]);
  if (actions.length === 0) return g;
  if (action === undefined) return g === group ? undefined : g;
  const a = actions.includes(action) ? action : closest(action, actions);
  return a ? `${g} ${a}` : undefined;
}

/** The option names parseArgs knows, for "did you mean" on a mistyped option. */
export function suggestOption(given: string, known: string[]): string | undefined {
  return closest(given.replace(/^-+/, ''), known);
}

/** The line to add under an unknown command or option: `Did you mean "ferry process list"?` */
export const didYouMean = (suggestion: string | undefined, prefix = 'ferry ') =>
  suggestion ? `Did you mean "${prefix}${suggestion}"?\n` : '';

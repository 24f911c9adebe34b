/**
 * The `ferry` commands for help and suggestions: each command's usage line and what it does,
 * `ferry <command> --help`, and "did you mean" for a mistyped one.
 */

export interface CommandHelp {
  /** The words that name it: `process list`. */
  name: string;
  usage: string;
  summary: string;
  options?: string[];
}

const OPERATOR_ENV = 'Talks to FERRY_URL (default http://127.0.0.1:8080) with FERRY_OPERATOR_API_KEY.';

export const COMMANDS: CommandHelp[] = [
  { name: 'serve', usage: 'serve [--no-worker]', summary: 'Run the API and, unless --no-worker, a worker.' },
  { name: 'worker', usage: 'worker', summary: 'Run account-creation workers only.' },
  { name: 'db migrate', usage: 'db migrate', summary: 'Apply pending database migrations.' },
  { name: 'db schema-dump', usage: 'db schema-dump [--out FILE]', summary: 'Print or write the schema.' },
  {
    name: 'db schema-check',
    usage: 'db schema-check [--file FILE]',
    summary: 'Fail when schema.sql differs from the migrations.',
  },
  {
    name: 'dev vendor-sim',
    usage: 'dev vendor-sim [--port N]',
    summary: 'A GoCardless- and Stripe-shaped payment vendor simulator on loopback.',
  },
  {
    name: 'supplier create',
    usage:
      'supplier create <code> [--status S] [--document-root R] [--send-welcome-emails true|false] [--dry-run-only true|false]',
    summary: 'Create an import supplier.',
  },
  { name: 'supplier list', usage: 'supplier list [--json]', summary: 'Suppliers with their process counts.' },
  { name: 'supplier show', usage: 'supplier show <code> [--json]', summary: 'One supplier.' },
  {
    name: 'supplier set-status',
    usage: 'supplier set-status <code> <Ongoing|Paused|Complete>',
    summary: "Change a supplier's status.",
  },
  {
    name: 'supplier set',
    usage:
      'supplier set <code> [--document-root R] [--send-welcome-emails true|false] [--dry-run-only true|false]',
    summary: "Change a supplier's document root or configuration.",
  },
  {
    name: 'supplier watch',
    usage: 'supplier watch [<code>] [--interval SECONDS] [--iterations N]',
    summary: 'Live process counts per state, refreshed until Ctrl-C (plain lines when not a terminal).',
    options: [
      '--interval SECONDS  time between refreshes (default 2)',
      '--iterations N      stop after N refreshes',
    ],
  },
  {
    name: 'apikey create',
    usage: 'apikey create <name> --suppliers <code,code|*>',
    summary: 'Create an API key (shown only once).',
  },
  { name: 'apikey list', usage: 'apikey list [--json]', summary: 'API keys (never the key itself).' },
  { name: 'apikey revoke', usage: 'apikey revoke <id>', summary: 'Revoke an API key.' },
  {
    name: 'process list',
    usage: 'process list [--supplier S] [--status STATUS] [--error-code C] [--csv|--json]',
    summary: 'Import processes by supplier, state and latest error code.',
    options: [
      '--supplier S      one import supplier',
      '--status STATUS   STAGED, PENDING, IN_PROGRESS, PROCESSED, CANCELLED, DRY_RUN_SUCCEEDED, ERRORED or DRY_RUN_ERRORED',
      "--error-code C    the code of the process's latest error",
      '--csv             the whole list as CSV (streamed)',
      '--json            the whole list as a JSON array (streamed)',
    ],
  },
  {
    name: 'process show',
    usage: 'process show <supplier> <external-account-number>',
    summary: 'A process: stored payload and events.',
  },
  {
    name: 'process cancel',
    usage: 'process cancel <supplier> <external-account-number>',
    summary: 'Cancel a process.',
  },
  {
    name: 'process retry',
    usage: 'process retry <supplier> <external-account-number>',
    summary: 'Send an ERRORED process back to PENDING.',
  },
  {
    name: 'push accounts',
    usage:
      'push accounts <file.ndjson> --url <base> --api-key <key> [--report FILE] [--concurrency N] [--dry-run] [--validate-only]',
    summary:
      'Validate, schedule and follow accounts to their final state (ferry push --help for the report).',
  },
  {
    name: 'push notes',
    usage:
      'push notes|transactions|statements|payment-instructions <file.ndjson> --url <base> --api-key <key>',
    summary: 'Send follow-up imports, one request body a line, reported per line.',
  },
];

const GROUPS = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
const ADMIN_GROUPS = new Set(['supplier', 'apikey', 'process']);

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

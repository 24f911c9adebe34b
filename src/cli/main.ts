import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, type FerryConfig, loadConfig } from '../config.ts';
import { migrate } from '../infra/db/migrate.ts';
import { openDb } from '../infra/db/open-db.ts';
import { openPgliteDb } from '../infra/db/pglite-db.ts';
import { dumpSchema } from '../infra/db/schema-dump.ts';
import { AdminApiError, ServiceUnreachableError } from './admin-client.ts';
import { runAdminCommand } from './admin-commands.ts';
import { runCatalogueCommand } from './catalogue-commands.ts';
import { runEventsCommand } from './events-commands.ts';
import { commandHelp, didYouMean, suggestCommand, suggestOption } from './help.ts';
import { runMapCommand } from './map-commands.ts';
import { stopWhenNpxParentEnds } from './npx-parent.ts';
import { isClusterProcess, runClusterPrimary } from './process-cluster.ts';
import { runPushCommand } from './push/push-command.ts';
import { hearStdoutClosing, StdoutReaderGone, writeStdout } from './stdout.ts';
import { runWaveReconcile } from './wave-reconcile.ts';
import { runWebhookCommand } from './webhook-commands.ts';

const USAGE = `Usage: ferry <command>

Service:
  serve [--no-worker] [--processes N|auto]
                                 run the API (and, unless --no-worker, an account-creation worker)
  worker [--processes N|auto]    run account-creation workers only
  db migrate                     apply pending database migrations
  db schema-dump [--out FILE]    print (or write) the schema as migrated
  db schema-check [--file FILE]  fail when schema.sql differs from the migrations

Development:
  dev vendor-sim [--port N]      a GoCardless- and Stripe-shaped payment vendor simulator on loopback

Operator (FERRY_URL, FERRY_OPERATOR_API_KEY; add --json for JSON output):
  supplier create <code> [--status S] [--document-root R] [--send-welcome-emails true|false] [--dry-run-only true|false]
                                 [--pause-when-errored WINDOW:SHARE|off] [--hold-welcome-emails true|false]
  supplier list | show <code> | set-status <code> <Ongoing|Paused|Complete>
  supplier set <code> [--document-root R] [--send-welcome-emails true|false] [--dry-run-only true|false]
                                 [--pause-when-errored WINDOW:SHARE|off] [--hold-welcome-emails true|false]
  supplier watch [<code>] [--interval SECONDS] [--iterations N]
  apikey create <name> --suppliers <code,code|*> | list | revoke <id>
  process list [--supplier S] [--status STATUS] [--error-code C] [--csv|--json]
  process show|cancel|retry <supplier> <external-account-number>
  wave approve <supplier> <wave> [--force] [--by NAME]
  wave rollback <supplier> <wave> [--yes]
  webhook add <url> --suppliers <code,code|*> [--types T,T] | list | remove <id>
  webhook deliveries|enable|disable|test <id>
  catalogue push <products.ndjson> [--dry-run] | push --list <name> <values.txt> [--dry-run] | status

Supplier (one request body a line; \`ferry push --help\` for the report and exit codes):
  push accounts <file.ndjson> --url <base> --api-key <key> [--report <file.ndjson>] [--concurrency N]
                [--dry-run] [--validate-only [--summary FILE]] [--no-wait] [--retry-rejected] [--wave NAME]
  push accounts [<book.ndjson>] --profile <profile.yaml> …   map the CSV files, then push (every push option)
  push notes|transactions|statements|payment-instructions <file.ndjson> --url <base> --api-key <key> [--report <file.ndjson>]
  push notes|transactions|statements|payment-instructions [<file.ndjson>] --profile <profile.yaml> …   map, then push
  map accounts|notes|transactions|statements|payment-instructions --profile <profile.yaml> [--out <book.ndjson>]
                CSV files + a mapping profile → a book (\`ferry map --help\`)
  wave reconcile <supplier> <wave> [--expectations FILE] [--kind K] [--measure M] [--differences N] [--json]
                --url <base> --api-key <key>
  events tail --supplier S [--after CURSOR|now] [--types A,B] [--follow] [--json] --url <base> --api-key <key>

ferry <command> --help describes one command.
`;

async function withDb<T>(fn: (db: Awaited<ReturnType<typeof openDb>>) => Promise<T>): Promise<T> {
  const db = await openDb(loadConfig());
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** The schema that the migrations produce, on a fresh in-memory database. */
async function freshSchemaText(): Promise<string> {
  const db = await openPgliteDb(null);
  try {
    await migrate(db);
    return await dumpSchema(db);
  } finally {
    await db.close();
  }
}

async function dbCommand(
  action: string | undefined,
  flags: Record<string, string | boolean | undefined>,
): Promise<number> {
  switch (action) {
    case 'migrate': {
      const applied = await withDb((db) => migrate(db));
      process.stdout.write(
        applied.length ? `Applied migrations: ${applied.join(', ')}\n` : 'Database is up to date.\n',
      );
      return 0;
    }
    case 'schema-dump': {
      const text = await freshSchemaText();
      if (typeof flags.out === 'string') writeFileSync(flags.out, text);
      else process.stdout.write(text);
      return 0;
    }
    case 'schema-check': {
      const file = typeof flags.file === 'string' ? flags.file : 'schema.sql';
      const text = await freshSchemaText();
      if (readFileSync(file, 'utf8') !== text) {
        process.stderr.write(
          `${file} does not match the migrations: run \`npm run schema:dump\` and commit it.\n`,
        );
        return 1;
      }
      process.stdout.write(`${file} matches the migrations.\n`);
      return 0;
    }
    default:
      process.stderr.write(`${didYouMean(suggestCommand(['db', action ?? '']))}${USAGE}`);
      return 2;
  }
}

const OPTIONS = {
  json: { type: 'boolean' },
  'no-worker': { type: 'boolean' },
  processes: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string' },
  file: { type: 'string' },
  status: { type: 'string' },
  'document-root': { type: 'string' },
  'send-welcome-emails': { type: 'string' },
  'hold-welcome-emails': { type: 'string' },
  force: { type: 'boolean' },
  by: { type: 'string' },
  yes: { type: 'boolean' },
  'dry-run-only': { type: 'string' },
  'pause-when-errored': { type: 'string' },
  suppliers: { type: 'string' },
  port: { type: 'string' },
  supplier: { type: 'string' },
  'error-code': { type: 'string' },
  csv: { type: 'boolean' },
  interval: { type: 'string' },
  iterations: { type: 'string' },
  types: { type: 'string' },
} as const;

/**
 * The primary of `--processes N` (process-cluster.ts): the embedded database is refused, and for
 * `serve` the port is checked and the operator key resolved once, before any process starts.
 */
async function runCluster(command: 'serve' | 'worker', config: FerryConfig): Promise<number> {
  if (config.databaseUrl === null) {
    process.stderr.write(
      `ferry: --processes ${config.processes} needs a PostgreSQL server (DATABASE_URL): the embedded database is held by one process.\n`,
    );
    return 2;
  }
  if (command === 'serve') {
    const { ensurePortFree } = await import('../infra/port-check.ts');
    await ensurePortFree(config.port, config.host);
    const { resolveOperatorKey } = await import('../auth/operator-key.ts');
    resolveOperatorKey(config.operatorApiKey, config.dataDir, (file) => {
      process.stdout.write(
        `\nFerry generated an operator API key and saved it in ${file} (readable only by you).\n\n`,
      );
    });
  }
  return runClusterPrimary({
    processes: config.processes,
    role: command,
    log: (line) => process.stderr.write(`${line}\n`),
  });
}

export async function main(argv: string[]): Promise<number> {
  hearStdoutClosing();
  stopWhenNpxParentEnds();
  // push has options of its own (docs/product.md, Push), parsed by its command.
  if (argv[0] === 'push') return runPushCommand(argv.slice(1));
  // And map (CSV files and a mapping profile → a book).
  if (argv[0] === 'map') return runMapCommand(argv.slice(1));
  // So has the supplier's `wave reconcile` (a token, not the operator key).
  if (argv[0] === 'wave' && argv[1] === 'reconcile') return runWaveReconcile(argv.slice(2));
  // And `events tail` (a token too; --follow runs until a signal).
  if (argv[0] === 'events') return runEventsCommand(argv.slice(1));
  // And the operator's reference data (files streamed to the service).
  if (argv[0] === 'catalogue') return runCatalogueCommand(argv.slice(1));
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof OPTIONS }>
  >;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (err) {
    const unknown = /Unknown option '([^']+)'/.exec((err as Error).message)?.[1];
    const hint = unknown ? didYouMean(suggestOption(unknown, Object.keys(OPTIONS)), '--') : '';
    const message = unknown ? `unknown option ${unknown}` : (err as Error).message;
    process.stderr.write(`ferry: ${message}\n${hint}\n${USAGE}`);
    return 2;
  }
  const positionals = parsed.positionals;
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const [command, ...rest] = positionals;
  if (values.help && command) {
    const help = commandHelp(positionals);
    if (help) {
      process.stdout.write(help);
      return 0;
    }
  }
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  try {
    switch (command) {
      case 'serve':
      case 'worker': {
        if (typeof values.processes === 'string') process.env.FERRY_PROCESSES = values.processes;
        const config = loadConfig();
        if (config.processes > 1 && !isClusterProcess()) return await runCluster(command, config);
        if (command === 'serve') {
          const { runServer } = await import('../server.ts');
          await runServer(config, { withWorker: !values['no-worker'], portChecked: isClusterProcess() });
        } else {
          const { runWorkerProcess } = await import('../worker-process.ts');
          await runWorkerProcess(config);
        }
        return new Promise(() => {}); // runs until a signal stops it
      }
      case 'db':
        return await dbCommand(rest[0], values);
      case 'dev': {
        if (rest[0] !== 'vendor-sim') break;
        const { runVendorSimulatorDevTool } = await import('./dev-tools.ts');
        return await runVendorSimulatorDevTool(
          typeof values.port === 'string' ? ['--port', values.port] : [],
        );
      }
      case 'webhook':
        return await runWebhookCommand(rest, values, {
          out: (s) => process.stdout.write(`${s}\n`),
          json: Boolean(values.json),
        });
      case 'supplier':
      case 'apikey':
      case 'process':
      case 'wave': {
        // Ctrl-C ends `supplier watch` cleanly (exit 0); other commands are short.
        const stop = new AbortController();
        if (command === 'supplier' && rest[0] === 'watch') process.once('SIGINT', () => stop.abort());
        return await runAdminCommand(command, rest, values, {
          out: (s) => process.stdout.write(`${s}\n`),
          write: writeStdout,
          json: Boolean(values.json),
          tty: process.stdout.isTTY === true,
          signal: stop.signal,
        });
      }
    }
    const hint = didYouMean(suggestCommand(positionals));
    process.stderr.write(`ferry: unknown command "${positionals.join(' ')}"\n${hint}\n${USAGE}`);
    return 2;
  } catch (err) {
    if (err instanceof StdoutReaderGone) return 0; // `ferry process list | head`: the reader has what it wanted
    if (err instanceof ConfigError) {
      process.stderr.write(`ferry: configuration error: ${err.message}\n`);
      return 1;
    }
    if (err instanceof AdminApiError || err instanceof ServiceUnreachableError) {
      process.stderr.write(`ferry: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`ferry: ${(err as Error).message}\n`);
    return 1;
  }
}

/**
 * `ferry catalogue push FILE [--dry-run]`, `ferry catalogue push --list NAME FILE [--dry-run]`,
 * `ferry catalogue status` (decision 0090): the operator's reference data. The file is streamed
 * to the service (a catalogue may be far past the 5 MiB body limit); a refusal prints its lines.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { adminClientOptionsFromEnv } from './admin-client.ts';

export const CATALOGUE_USAGE = `Usage:
  ferry catalogue push <products.ndjson> [--dry-run] [--json]
                                 replace the product catalogue (one product a line); --dry-run shows the diff
  ferry catalogue push --list <name> <values.txt> [--dry-run] [--json]
                                 replace a code list (tpr, operations-team, psr-description, …; one value a line)
  ferry catalogue status [--json]
                                 the catalogue's and each code list's version, or that none is loaded

FERRY_URL and FERRY_OPERATOR_API_KEY say where and as whom. Exit 0 stored (or diffed), 1 refused
(the lines or the uses are printed), 2 usage.
`;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, printed
type Obj = Record<string, any>;

export interface CatalogueIo {
  out(text: string): void;
  err(text: string): void;
  env?: Record<string, string | undefined>;
}

const stdio: CatalogueIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

export async function runCatalogueCommand(argv: string[], io: CatalogueIo = stdio): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    io.err(`ferry catalogue: ${(err as Error).message}\n\n${CATALOGUE_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, file, ...extra] = positionals;
  if (values.help) {
    io.out(CATALOGUE_USAGE);
    return 0;
  }
  let options: { baseUrl: string; operatorKey: string };
  try {
    options = adminClientOptionsFromEnv(io.env ?? process.env);
  } catch (err) {
    io.err(`ferry catalogue: ${(err as Error).message}\n`);
    return 2;
  }
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${options.baseUrl}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        authorization: `Bearer ${options.operatorKey}`,
      },
    });
  if (command === 'status' && file === undefined) return status(call, io, values.json === true);
  if (command !== 'push' || file === undefined || extra.length > 0) {
    io.err(`ferry catalogue: give push FILE, push --list NAME FILE, or status\n\n${CATALOGUE_USAGE}`);
    return 2;
  }
  try {
    statSync(file);
  } catch (err) {
    io.err(`ferry catalogue: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const list = values.list;
  const path =
    list === undefined ? '/admin/v1/products/' : `/admin/v1/code-lists/${encodeURIComponent(list)}/`;
  const res = await call(`${path}${values['dry-run'] ? '?dry_run=true' : ''}`, {
    method: 'PUT',
    headers: { 'content-type': list === undefined ? 'application/x-ndjson' : 'text/plain' },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const body = (await res.json().catch(() => ({}))) as Obj;
  if (values.json) io.out(`${JSON.stringify(body)}\n`);
  if (res.status !== 200) {
    if (!values.json) io.err(refusal(res.status, body));
    return res.status === 404 || res.status === 401 ? 2 : 1;
  }
  if (!values.json) io.out(uploaded(body, list));
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      'dry-run': { type: 'boolean' },
      list: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function refusal(status: number, body: Obj): string {
  const lines = [`Refused (${status} ${body.code ?? ''}): ${body.detail ?? ''}`];
  for (const e of (body.errors ?? []).slice(0, 20)) lines.push(`  ${e.attr}: ${e.code} — ${e.detail}`);
  if ((body.errors?.length ?? 0) > 20) lines.push(`  … ${body.errors.length - 20} more`);
  if (body.accounts !== undefined)
    lines.push(
      `  in use by ${body.accounts} accounts and ${body.processes} processes: ${body.codes?.join(', ')}`,
    );
  return `${lines.join('\n')}\nNothing was stored.\n`;
}

function uploaded(body: Obj, list: string | undefined): string {
  const d = body.diff;
  const what = list === undefined ? 'catalogue' : `list ${list}`;
  const change =
    list === undefined
      ? `${d.added} products added, ${d.removed} removed, ${d.changed} changed`
      : `${d.added} values added, ${d.removed} removed`;
  const inUse = `${d.in_use.accounts} accounts and ${d.in_use.processes} processes use what it removes`;
  if (body.dry_run) return `Dry run of the ${what}: ${change}; ${inUse}. Nothing was stored.\n`;
  const v = body.version;
  const counts =
    list === undefined
      ? `${v.counts.products} products, ${v.counts.tariffs} tariffs`
      : `${v.counts.values} values`;
  return `Stored the ${what} as version ${v.version} (${counts}): ${change}.\n`;
}

async function status(call: (path: string) => Promise<Response>, io: CatalogueIo, json: boolean) {
  const [products, lists] = await Promise.all([
    call('/admin/v1/products/?limit=1').then((r) => r.json() as Promise<Obj>),
    call('/admin/v1/code-lists/').then((r) => r.json() as Promise<Obj[]>),
  ]);
  if (json) {
    io.out(`${JSON.stringify({ catalogue: products.version, code_lists: lists })}\n`);
    return 0;
  }
  const v = products.version;
  io.out(
    v
      ? `Catalogue: version ${v.version} (${v.counts.products} products, ${v.counts.tariffs} tariffs), uploaded ${v.uploaded_at} by ${v.uploaded_by}\n`
      : 'Catalogue: none loaded: tariff and product codes are checked for their form only\n',
  );
  for (const list of lists) {
    io.out(
      list.version
        ? `List ${list.name}: version ${list.version.version} (${list.version.counts.values} values), uploaded ${list.version.uploaded_at}\n`
        : `List ${list.name}: none loaded: form check only\n`,
    );
  }
  return 0;
}

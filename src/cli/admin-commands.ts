import { AdminClient, adminClientOptionsFromEnv } from './admin-client.ts';
import { COMMANDS, commandHelp, didYouMean, suggestCommand } from './help.ts';
import { type Flags, type ListIo, processList, supplierWatch, UsageError } from './operator-lists.ts';
import { renderRecord, renderTable } from './table.ts';

export interface CommandIo extends ListIo {
  env?: Record<string, string | undefined>;
}

const need = (v: string | undefined, what: string) => {
  if (!v) throw new UsageError(`missing ${what}`);
  return v;
};

function bool(flags: Flags, name: string): boolean | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (v === true || v === 'true') return true;
  if (v === 'false') return false;
  throw new UsageError(`--${name} takes true or false`);
}

function supplierSettings(flags: Flags) {
  const config: Record<string, boolean> = {};
  const welcome = bool(flags, 'send-welcome-emails');
  const dryRun = bool(flags, 'dry-run-only');
  if (welcome !== undefined) config.send_welcome_emails = welcome;
  if (dryRun !== undefined) config.dry_run_only = dryRun;
  return {
    ...(typeof flags.status === 'string' ? { status: flags.status } : {}),
    ...(typeof flags['document-root'] === 'string' ? { document_root: flags['document-root'] } : {}),
    ...(Object.keys(config).length ? { config } : {}),
  };
}

const supplierRow = (s: Record<string, unknown>) => {
  const counts = (s.import_processes ?? {}) as Record<string, number>;
  const cfg = s.config as Record<string, boolean>;
  return {
    ...s,
    pending: counts.PENDING ?? 0,
    processed: counts.PROCESSED ?? 0,
    errored: counts.ERRORED ?? 0,
    welcome_emails: cfg?.send_welcome_emails,
    dry_run_only: cfg?.dry_run_only,
  };
};
const SUPPLIER_COLUMNS = [
  'code',
  'status',
  'document_root',
  'welcome_emails',
  'dry_run_only',
  'pending',
  'processed',
  'errored',
];

/** `ferry supplier|apikey|process ...`: wraps the admin API; human output, or JSON with --json. */
export async function runAdminCommand(
  group: string,
  args: string[],
  flags: Flags,
  io: CommandIo,
): Promise<number> {
  const [action, ...rest] = args;
  if (!COMMANDS.some((c) => c.name === `${group} ${action ?? ''}`)) {
    const hint = didYouMean(suggestCommand([group, action ?? '']));
    const help = action === undefined ? `\n${commandHelp([group])}` : '';
    process.stderr.write(`ferry: unknown command: ${`${group} ${action ?? ''}`.trim()}\n${hint}${help}`);
    return 2;
  }
  const client = new AdminClient(adminClientOptionsFromEnv(io.env));
  const show = (value: unknown, human: () => string) =>
    io.out(io.json ? JSON.stringify(value, null, 2) : human());
  const enc = encodeURIComponent;
  type Json = Record<string, unknown>;
  const supplierPath = () => `/import-suppliers/${enc(need(rest[0], 'supplier code'))}/`;

  try {
    switch (`${group} ${action ?? ''}`) {
      case 'supplier create': {
        const s = await client.call<Json>('POST', '/import-suppliers/', {
          code: need(rest[0], 'supplier code'),
          ...supplierSettings(flags),
        });
        show(s, () => `Created import supplier ${s.code}.\n${renderRecord(s)}`);
        return 0;
      }
      case 'supplier list': {
        const list = await client.call<Json[]>('GET', '/import-suppliers/');
        show(list, () => renderTable(list.map(supplierRow), SUPPLIER_COLUMNS));
        return 0;
      }
      case 'supplier show': {
        const s = await client.call<Json>('GET', supplierPath());
        show(s, () => renderRecord(s));
        return 0;
      }
      case 'supplier set-status': {
        const s = await client.call<Json>('PATCH', supplierPath(), {
          status: need(rest[1], 'status (Ongoing, Paused or Complete)'),
        });
        show(s, () => `Import supplier ${s.code} is now ${s.status}.`);
        return 0;
      }
      case 'supplier set': {
        const s = await client.call<Json>('PATCH', supplierPath(), supplierSettings(flags));
        show(s, () => `Updated import supplier ${s.code}.\n${renderRecord(s)}`);
        return 0;
      }
      case 'apikey create': {
        const suppliers = need(
          typeof flags.suppliers === 'string' ? flags.suppliers : undefined,
          '--suppliers (codes separated by commas, or *)',
        );
        const k = await client.call<Json>('POST', '/api-keys/', {
          name: need(rest[0], 'key name'),
          import_suppliers: suppliers
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        });
        show(
          k,
          () =>
            `Created API key ${k.id} (${k.name}) for ${(k.import_suppliers as string[]).join(', ')}.\nKey (shown only now):\n\n  ${k.key}\n`,
        );
        return 0;
      }
      case 'apikey list': {
        const list = await client.call<Json[]>('GET', '/api-keys/');
        show(list, () => renderTable(list, ['id', 'name', 'import_suppliers', 'created_at', 'revoked_at']));
        return 0;
      }
      case 'apikey revoke': {
        const id = need(rest[0], 'key id');
        await client.call('DELETE', `/api-keys/${enc(id)}/`);
        show({ id, revoked: true }, () => `Revoked API key ${id}.`);
        return 0;
      }
      case 'supplier watch':
        return await supplierWatch(client, rest[0], flags, io);
      case 'process list':
        return await processList(client, flags, io);
      case 'process show':
      case 'process cancel':
      case 'process retry': {
        const path = `/import-processes/${enc(need(rest[0], 'supplier code'))}/${enc(need(rest[1], 'external account number'))}/`;
        const p =
          action === 'show'
            ? await client.call<Json>('GET', path)
            : await client.call<Json>('POST', `${path}${action}/`);
        show(p, () => {
          const { payload: _p, events, ...head } = p;
          const timeline = renderTable(events as Record<string, unknown>[], ['occurred_at', 'event', 'data']);
          return `${renderRecord(head)}\n\nEvents:\n${timeline}`;
        });
        return 0;
      }
      default:
        throw new UsageError(`unknown command: ${group} ${action ?? ''}`.trim());
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`ferry: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

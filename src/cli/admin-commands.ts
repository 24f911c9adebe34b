import type { operations } from '../client/index.ts';
import { adminClientOptionsFromEnv, bodyOf, createAdminApi, succeeded } from './admin-client.ts';
import { COMMANDS, commandHelp, didYouMean, suggestCommand } from './help.ts';
import { type Flags, processList, supplierWatch, UsageError } from './operator-lists.ts';
import { renderRecord, renderTable } from './table.ts';
import { runWaveCommand, type WaveIo } from './wave-commands.ts';

export interface CommandIo extends WaveIo {
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

/** What `supplier create` and `supplier set` may change, as the OpenAPI document describes it. */
type SupplierSettings = NonNullable<
  operations['adminUpdateImportSupplier']['requestBody']
>['content']['application/json'];
/**
 * A status as the operator typed it: the service checks it, and its 400 names the allowed ones
 * (a list here would repeat the service's).
 */
const supplierStatus = (status: string) => status as NonNullable<SupplierSettings['status']>;

type PauseWhenErrored = NonNullable<SupplierSettings['config']>['pause_when_errored'];

/**
 * `--pause-when-errored 200:0.2` (window:share) or `off`. The service checks the ranges, and its
 * 400 names them.
 */
function pauseWhenErrored(flags: Flags): PauseWhenErrored {
  const v = flags['pause-when-errored'];
  if (v === undefined) return undefined;
  if (v === 'off') return null;
  const m = typeof v === 'string' ? /^([0-9]+):([0-9]*\.?[0-9]+)$/.exec(v) : null;
  if (!m) throw new UsageError('--pause-when-errored takes WINDOW:SHARE (200:0.2) or off');
  return { window: Number(m[1]), share: Number(m[2]) };
}

function supplierSettings(flags: Flags): SupplierSettings {
  const config: NonNullable<SupplierSettings['config']> = {};
  const welcome = bool(flags, 'send-welcome-emails');
  const hold = bool(flags, 'hold-welcome-emails');
  const dryRun = bool(flags, 'dry-run-only');
  const pause = pauseWhenErrored(flags);
  if (welcome !== undefined) config.send_welcome_emails = welcome;
  if (hold !== undefined) config.hold_welcome_emails = hold;
  if (dryRun !== undefined) config.dry_run_only = dryRun;
  if (pause !== undefined) config.pause_when_errored = pause;
  return {
    ...(typeof flags.status === 'string' ? { status: supplierStatus(flags.status) } : {}),
    ...(typeof flags['document-root'] === 'string' ? { document_root: flags['document-root'] } : {}),
    ...(Object.keys(config).length ? { config } : {}),
  };
}

interface SupplierAnswer {
  config: Record<string, unknown>;
  import_processes?: Record<string, number>;
}
const supplierRow = <S extends SupplierAnswer>(s: S) => {
  const counts = s.import_processes ?? {};
  return {
    ...s,
    pending: counts.PENDING ?? 0,
    processed: counts.PROCESSED ?? 0,
    errored: counts.ERRORED ?? 0,
    welcome_emails: s.config.send_welcome_emails,
    dry_run_only: s.config.dry_run_only,
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

/** `ferry supplier|apikey|process|wave ...`: wraps the admin API; human output, or JSON with --json. */
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
  const api = createAdminApi(adminClientOptionsFromEnv(io.env));
  const show = (value: unknown, human: () => string) =>
    io.out(io.json ? JSON.stringify(value, null, 2) : human());
  const supplier = () => ({ params: { path: { code: need(rest[0], 'supplier code') } } });

  try {
    switch (`${group} ${action ?? ''}`) {
      case 'supplier create': {
        const s = await bodyOf(
          api.POST('/admin/v1/import-suppliers/', {
            body: { code: need(rest[0], 'supplier code'), ...supplierSettings(flags) },
          }),
        );
        show(s, () => `Created import supplier ${s.code}.\n${renderRecord(s)}`);
        return 0;
      }
      case 'supplier list': {
        const list = await bodyOf(api.GET('/admin/v1/import-suppliers/'));
        show(list, () => renderTable(list.map(supplierRow), SUPPLIER_COLUMNS));
        return 0;
      }
      case 'supplier show': {
        const s = await bodyOf(api.GET('/admin/v1/import-suppliers/{code}/', supplier()));
        show(s, () => renderRecord(s));
        return 0;
      }
      case 'supplier set-status': {
        const { params } = supplier();
        const status = supplierStatus(need(rest[1], 'status (Ongoing, Paused or Complete)'));
        const s = await bodyOf(api.PATCH('/admin/v1/import-suppliers/{code}/', { params, body: { status } }));
        show(s, () => `Import supplier ${s.code} is now ${s.status}.`);
        return 0;
      }
      case 'supplier set': {
        const s = await bodyOf(
          api.PATCH('/admin/v1/import-suppliers/{code}/', { ...supplier(), body: supplierSettings(flags) }),
        );
        show(s, () => `Updated import supplier ${s.code}.\n${renderRecord(s)}`);
        return 0;
      }
      case 'apikey create': {
        const suppliers = need(
          typeof flags.suppliers === 'string' ? flags.suppliers : undefined,
          '--suppliers (codes separated by commas, or *)',
        );
        const body = {
          name: need(rest[0], 'key name'),
          import_suppliers: suppliers
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        };
        const k = await bodyOf(api.POST('/admin/v1/api-keys/', { body }));
        show(
          k,
          () =>
            `Created API key ${k.id} (${k.name}) for ${k.import_suppliers.join(', ')}.\nKey (shown only now):\n\n  ${k.key}\n`,
        );
        return 0;
      }
      case 'apikey list': {
        const list = await bodyOf(api.GET('/admin/v1/api-keys/'));
        show(list, () => renderTable(list, ['id', 'name', 'import_suppliers', 'created_at', 'revoked_at']));
        return 0;
      }
      case 'apikey revoke': {
        const id = need(rest[0], 'key id');
        await succeeded(api.DELETE('/admin/v1/api-keys/{id}/', { params: { path: { id } } }));
        show({ id, revoked: true }, () => `Revoked API key ${id}.`);
        return 0;
      }
      case 'wave approve':
      case 'wave rollback':
        return await runWaveCommand(api, action as 'approve' | 'rollback', rest, flags, io);
      case 'supplier watch':
        return await supplierWatch(api, rest[0], flags, io);
      case 'process list':
        return await processList(api, flags, io);
      case 'process show':
      case 'process cancel':
      case 'process retry': {
        const oneProcess = {
          params: {
            path: {
              supplier: need(rest[0], 'supplier code'),
              external: need(rest[1], 'external account number'),
            },
          },
        };
        const p =
          action === 'show'
            ? await bodyOf(api.GET('/admin/v1/import-processes/{supplier}/{external}/', oneProcess))
            : action === 'cancel'
              ? await bodyOf(api.POST('/admin/v1/import-processes/{supplier}/{external}/cancel/', oneProcess))
              : await bodyOf(api.POST('/admin/v1/import-processes/{supplier}/{external}/retry/', oneProcess));
        show(p, () => {
          const { payload, events, ...head } = p;
          const timeline = renderTable(events, ['occurred_at', 'event', 'data']);
          const text = `${renderRecord(head)}\n\nEvents:\n${timeline}`;
          // show promises the stored payload; cancel and retry confirm a change, their payload unchanged.
          return action === 'show' ? `${text}\n\nPayload:\n${JSON.stringify(payload, null, 2)}` : text;
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

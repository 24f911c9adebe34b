/**
 * `ferry webhook add|list|remove|deliveries|enable|disable|test`: the operator's webhook endpoints
 * over the admin API (`/admin/v1/webhook-endpoints/`, docs/product.md, Events out). The secret
 * that signs deliveries is shown once, by `add`; nothing else prints it.
 */
import type { operations } from '../client/index.ts';
import { adminClientOptionsFromEnv, bodyOf, createAdminApi } from './admin-client.ts';
import { COMMANDS, commandHelp, didYouMean, suggestCommand } from './help.ts';
import { type Flags, UsageError } from './operator-lists.ts';
import { renderRecord, renderTable } from './table.ts';

export interface WebhookIo {
  out: (s: string) => void;
  json: boolean;
  env?: Record<string, string | undefined>;
}

type WebhookEndpoint =
  operations['adminListWebhookEndpoints']['responses'][200]['content']['application/json'][number];
type Delivery =
  operations['adminListWebhookDeliveries']['responses'][200]['content']['application/json'][number];
const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'import_suppliers',
  'types',
  'enabled',
  'pending',
  'failed',
  'created_at',
  'disabled_reason',
];
/** An endpoint as a row of the list: every type when it names none. */
const endpointRow = <E extends Pick<WebhookEndpoint, 'types'>>(e: E) => ({ ...e, types: e.types ?? 'all' });

/** A comma-separated flag as a list, or undefined when it is absent. */
const list = (v: string | boolean | undefined) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

const need = (v: string | undefined, what: string) => {
  if (!v) throw new UsageError(`missing ${what}`);
  return v;
};

/** Attempts shown per delivery in the table: one retried for days has dozens (--json has them all). */
const ATTEMPTS_SHOWN = 5;

/**
 * One row per attempt, newest delivery first, its latest attempts only (a row says how many
 * earlier ones are left out); a delivery not yet attempted has one row of its own.
 */
const attemptRows = (deliveries: Delivery[]) =>
  deliveries.flatMap((d) => {
    const hidden = Math.max(0, d.attempts.length - ATTEMPTS_SHOWN);
    const rows: Record<string, unknown>[] = d.attempts.slice(hidden).map((a, i) => ({
      attempt: hidden + i + 1,
      at: a.at,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
    }));
    if (hidden > 0) rows.unshift({ attempt: '...', error: `${hidden} earlier attempts (--json shows them)` });
    if (rows.length === 0) rows.push({});
    rows[0] = { event_id: d.event_id, type: d.type, state: d.state, ...rows[0] };
    return rows;
  });

/** `ferry webhook <action>`: 0 when done, 1 when the service refused (thrown on), 2 on bad usage. */
export async function runWebhookCommand(args: string[], flags: Flags, io: WebhookIo): Promise<number> {
  const [action, ...rest] = args;
  if (!COMMANDS.some((c) => c.name === `webhook ${action ?? ''}`)) {
    const hint = didYouMean(suggestCommand(['webhook', action ?? '']));
    const help = action === undefined ? `\n${commandHelp(['webhook'])}` : '';
    process.stderr.write(`ferry: unknown command: ${`webhook ${action ?? ''}`.trim()}\n${hint}${help}`);
    return 2;
  }
  const show = (value: unknown, human: () => string) =>
    io.out(io.json ? JSON.stringify(value, null, 2) : human());
  const api = createAdminApi(adminClientOptionsFromEnv(io.env));
  const one = () => ({ params: { path: { id: need(rest[0], 'webhook endpoint id') } } });

  try {
    switch (action) {
      case 'add': {
        const url = need(rest[0], 'URL');
        const suppliers = list(flags.suppliers);
        if (!suppliers?.length) throw new UsageError('missing --suppliers (codes separated by commas, or *)');
        const types = list(flags.types);
        const body = { url, import_suppliers: suppliers, ...(types ? { types } : {}) };
        const w = await bodyOf(api.POST('/admin/v1/webhook-endpoints/', { body }));
        show(w, () => {
          const { secret, ...head } = endpointRow(w);
          return `Created webhook endpoint ${w.id} for ${w.url}.\n${renderRecord(head)}\n\nSigning secret (shown only now; it will not be shown again):\n\n  ${secret}\n`;
        });
        return 0;
      }
      case 'list': {
        const endpoints = await bodyOf(api.GET('/admin/v1/webhook-endpoints/'));
        show(endpoints, () => renderTable(endpoints.map(endpointRow), ENDPOINT_COLUMNS));
        return 0;
      }
      case 'remove': {
        const removed = await api.DELETE('/admin/v1/webhook-endpoints/{id}/', one());
        if (!removed.response.ok) await bodyOf(Promise.resolve(removed));
        show({ id: rest[0], removed: true }, () => `Removed webhook endpoint ${rest[0]}.`);
        return 0;
      }
      case 'enable':
      case 'disable': {
        const w = await bodyOf(
          api.PATCH('/admin/v1/webhook-endpoints/{id}/', {
            ...one(),
            body: { enabled: action === 'enable' },
          }),
        );
        show(w, () => `Webhook endpoint ${w.id} is now ${w.enabled ? 'enabled' : 'disabled'}.`);
        return 0;
      }
      case 'deliveries': {
        const deliveries = await bodyOf(api.GET('/admin/v1/webhook-endpoints/{id}/deliveries/', one()));
        show(deliveries, () =>
          renderTable(attemptRows(deliveries), [
            'event_id',
            'type',
            'state',
            'attempt',
            'at',
            'status_code',
            'duration_ms',
            'error',
          ]),
        );
        return 0;
      }
      case 'test': {
        const queued = await bodyOf(api.POST('/admin/v1/webhook-endpoints/{id}/test/', one()));
        show(
          queued,
          () =>
            `Queued test event ${queued.event_id} for webhook endpoint ${rest[0]}: \`ferry webhook deliveries ${rest[0]}\` shows how it went.`,
        );
        return 0;
      }
      default:
        throw new UsageError(`unknown command: webhook ${action ?? ''}`.trim());
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`ferry: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

/**
 * An operator's program written against the client generated from Ferry's /openapi.json: it
 * calls every admin operation (suppliers, API keys, processes one at a time and by filter,
 * exports, progress, waves, webhook endpoints, the catalogue and code lists). Like client-program.ts it is type-checked with `tsc --strict` beside
 * freshly generated types and run against the service; it uses only those types and openapi-fetch.
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi.ts';

export interface OperatorInput {
  baseUrl: string;
  operatorKey: string;
  /** A supplier with an ERRORED process `errored` and a STAGED process `staged` (no worker takes it). */
  supplier: string;
  errored: string;
  staged: string;
}

const fail = (step: string, error: unknown): never => {
  throw new Error(`${step}: ${JSON.stringify(error)}`);
};

export async function runOperatorProgram(input: OperatorInput): Promise<string[]> {
  const steps: string[] = [];
  const ferry = createClient<paths>({
    baseUrl: input.baseUrl,
    headers: { authorization: `Bearer ${input.operatorKey}` },
  });
  const code = `${input.supplier}_OPS`;

  const created = await ferry.POST('/admin/v1/import-suppliers/', { body: { code, status: 'Paused' } });
  if (created.error) fail('create supplier', created.error);
  const updated = await ferry.PATCH('/admin/v1/import-suppliers/{code}/', {
    params: { path: { code } },
    body: { status: 'Ongoing', config: { dry_run_only: true } },
  });
  if (updated.error) fail('update supplier', updated.error);
  const one = await ferry.GET('/admin/v1/import-suppliers/{code}/', { params: { path: { code } } });
  const all = await ferry.GET('/admin/v1/import-suppliers/');
  steps.push(`suppliers ${one.data?.status} ${all.data?.some((s) => s.code === code)}`);

  const key = await ferry.POST('/admin/v1/api-keys/', { body: { name: 'ops', import_suppliers: [code] } });
  if (!key.data) return fail('create key', key.error);
  const keys = await ferry.GET('/admin/v1/api-keys/');
  const revoked = await ferry.DELETE('/admin/v1/api-keys/{id}/', { params: { path: { id: key.data.id } } });
  steps.push(`keys ${keys.data?.some((k) => k.id === key.data?.id)} ${revoked.response.status}`);

  const page = await ferry.GET('/admin/v1/import-processes/', {
    params: { query: { supplier: input.supplier, status: 'ERRORED', limit: '10' } },
  });
  if (!page.data) return fail('list', page.error);
  const firstError = page.data.results[0]?.latest_error?.code;
  steps.push(`list ${page.data.results.length} ${firstError} ${page.data.next_cursor}`);

  const exported = await ferry.GET('/admin/v1/import-processes/export/', {
    params: { query: { supplier: input.supplier, format: 'csv' } },
    parseAs: 'text',
  });
  if (exported.error) fail('export', exported.error);
  steps.push(`export ${String(exported.data).trimEnd().split('\r\n').length} lines`);

  const process = (external: string) => ({ params: { path: { supplier: input.supplier, external } } });
  const detail = await ferry.GET('/admin/v1/import-processes/{supplier}/{external}/', process(input.errored));
  const retried = await ferry.POST(
    '/admin/v1/import-processes/{supplier}/{external}/retry/',
    process(input.errored),
  );
  const cancelled = await ferry.POST(
    '/admin/v1/import-processes/{supplier}/{external}/cancel/',
    process(input.staged),
  );
  steps.push(`process ${detail.data?.status} ${retried.data?.status} ${cancelled.data?.status}`);

  const bulkRetry = await ferry.POST('/admin/v1/import-processes/retry/', {
    body: { supplier: input.supplier, status: 'ERRORED' },
  });
  const bulkCancel = await ferry.POST('/admin/v1/import-processes/cancel/', {
    body: { supplier: input.supplier, status: 'PENDING' },
  });
  if (!bulkRetry.data || !bulkCancel.data) return fail('bulk', bulkRetry.error ?? bulkCancel.error);
  // A worker runs beside this program: which processes the filters still match depends on it.
  steps.push(`bulk ${bulkRetry.data.action} ${bulkCancel.data.action}`);

  const progress = await ferry.GET('/admin/v1/import-suppliers/{code}/progress/', {
    params: { path: { code: input.supplier }, query: { minutes: '5' } },
  });
  if (!progress.data) return fail('progress', progress.error);
  steps.push(`progress ${progress.data.per_minute.length} minutes`);

  const outbox = await ferry.GET('/admin/v1/email-outbox/', { params: { query: { failures: '5' } } });
  if (!outbox.data) return fail('outbox', outbox.error);
  // HELD e-mails wait for their wave's approval: a count of their own, and the waves holding them.
  steps.push(
    `outbox ${outbox.response.status} held ${outbox.data.counts.HELD} in ${outbox.data.held.length} waves`,
  );

  const wave = { params: { path: { supplier: input.supplier, wave: 'typed-wave' } } };
  const preview = await ferry.POST('/admin/v1/waves/{supplier}/{wave}/rollback/', {
    ...wave,
    body: { dry_run: true },
  });
  const approved = await ferry.POST('/admin/v1/waves/{supplier}/{wave}/approve/', {
    ...wave,
    body: { force: true },
  });
  if (!preview.data || !approved.data) return fail('wave', preview.error ?? approved.error);
  steps.push(`wave ${preview.data.processes} ${approved.data.approval.forced}`);

  const hook = await ferry.POST('/admin/v1/webhook-endpoints/', {
    body: {
      url: 'http://127.0.0.1:9/hooks',
      import_suppliers: [input.supplier],
      types: ['EVENT_NOTE_ADDED'],
    },
  });
  if (!hook.data) return fail('webhook', hook.error);
  const endpoint = { params: { path: { id: hook.data.id } } };
  const hooks = await ferry.GET('/admin/v1/webhook-endpoints/');
  const paused = await ferry.PATCH('/admin/v1/webhook-endpoints/{id}/', {
    ...endpoint,
    body: { enabled: false },
  });
  const tested = await ferry.POST('/admin/v1/webhook-endpoints/{id}/test/', endpoint);
  const deliveries = await ferry.GET('/admin/v1/webhook-endpoints/{id}/deliveries/', endpoint);
  const shown = await ferry.GET('/admin/v1/webhook-endpoints/{id}/', endpoint);
  const removed = await ferry.DELETE('/admin/v1/webhook-endpoints/{id}/', endpoint);
  steps.push(
    `webhook ${hook.data.secret.length > 0} ${hooks.data?.some((h) => h.id === hook.data?.id)} ` +
      `${paused.data?.enabled} ${tested.response.status} ${deliveries.data?.length} ${shown.data?.url} ${removed.response.status}`,
  );

  // The product catalogue and a code list: what an upload would change (dry runs store nothing,
  // so the other programs' accounts keep today's form checks), and what is loaded.
  const product = `${JSON.stringify({
    code: 'OPS-VAR',
    fuel: 'ELECTRICITY',
    is_variable: true,
    is_prepay: false,
    available_from: '2015-01-01',
    tariffs: [
      {
        code: 'E-OPS-VAR-C',
        region: 'C',
        payment_method: 'DIRECT_DEBIT',
        registers: 1,
        rate_bands: ['STANDARD'],
      },
    ],
  })}\n`;
  const catalogue = await ferry.PUT('/admin/v1/products/', {
    params: { query: { dry_run: true } },
    body: product,
    bodySerializer: () => product,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  const products = await ferry.GET('/admin/v1/products/');
  const tprs = 'TPR00001\nTPR00002\n';
  const list = await ferry.PUT('/admin/v1/code-lists/{name}/', {
    params: { path: { name: 'tpr' }, query: { dry_run: true } },
    body: tprs,
    bodySerializer: () => tprs,
    headers: { 'content-type': 'text/plain' },
  });
  const lists = await ferry.GET('/admin/v1/code-lists/');
  if (!catalogue.data || !products.data || !list.data || !lists.data) {
    return fail('catalogue', catalogue.error ?? products.error ?? list.error ?? lists.error);
  }
  const tpr = lists.data.find((l) => l.name === 'tpr');
  steps.push(
    `catalogue ${catalogue.data.dry_run} ${catalogue.data.diff.added} ${products.data.products.length} ` +
      `${list.data.diff.added} ${tpr?.code} ${tpr?.version}`,
  );
  return steps;
}

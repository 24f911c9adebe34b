import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bulkTransition } from '../account-import/operator/process-actions.queries.ts';
import { errorCodeCounts } from '../account-import/operator/supplier-activity.queries.ts';
import {
  type RefusalRow,
  readSupplierScheduleRefusals,
  splitRefusals,
} from '../account-import/refusals/schedule-refusals.ts';
import { listSupplierWaves, type WaveSummary } from '../account-import/waves/wave-list.queries.ts';
import { emailOutboxSummary } from '../accounts/welcome-emails/outbox.queries.ts';
import { notFound } from '../errors/error-catalogue.ts';
import { StringEnum } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import {
  findSupplier,
  listSuppliersWithCounts,
  type SupplierCache,
  type SupplierWithCounts,
  updateSupplierSettings,
} from '../suppliers/suppliers.queries.ts';
import { IMPORT_PROCESS_STATUSES } from '../vocabulary/import-process-states.ts';
import { wireDatetime } from '../vocabulary/wire-datetime.ts';
import { sendPage, sessionOf } from './dashboard-auth.ts';
import { type Html, html, query, seg } from './html.ts';
import { type PageContext, page, postForm } from './layout.ts';
import { NoticeQuery, noticeText, withNotice } from './notices.ts';
import { CHART_MINUTES, RATE_MINUTES, type SupplierSnapshot, supplierSnapshot } from './progress.ts';

const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
const PageQuery = Type.Object(NoticeQuery, { additionalProperties: false });
const StatusBody = Type.Object(
  { _csrf: Type.String(), status: StringEnum(['Ongoing', 'Paused'] as const) },
  { additionalProperties: false },
);
const BulkBody = Type.Object(
  {
    _csrf: Type.String(),
    action: StringEnum(['cancel', 'retry'] as const),
    status: StringEnum(['ERRORED', 'DRY_RUN_ERRORED'] as const),
    error_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' })),
  },
  { additionalProperties: false },
);

export const supplierPath = (code: string) => `/dashboard/suppliers/${seg(code)}/`;
export const processesPath = (code: string, filter: Record<string, string | undefined> = {}) =>
  `${supplierPath(code)}processes/${query(filter)}`;
export const wavePath = (code: string, wave: string) => `${supplierPath(code)}waves/${seg(wave)}/`;

function pauseOrResume(ctx: PageContext, s: { code: string; status: string }) {
  if (s.status === 'Complete') return null;
  const to = s.status === 'Paused' ? 'Ongoing' : 'Paused';
  return postForm(ctx, `${supplierPath(s.code)}status`, s.status === 'Paused' ? 'Resume' : 'Pause', {
    fields: { status: to },
  });
}

/** A state as a column heading that may break after its underscores (DRY_RUN_SUCCEEDED is wide). */
const stateHeading = (state: string) =>
  state.split('_').map((part, i) => (i === 0 ? part : html`_<wbr>${part}`));

// Pause/Resume sits beside the status it changes, not in a last column: a wide table scrolls
// sideways, and a button at its far end was out of sight at 1366 px.
function suppliersTable(ctx: PageContext, suppliers: SupplierWithCounts[]) {
  if (suppliers.length === 0) return html`<p>No import suppliers yet.</p>`;
  return html`<div class="scroll"><table class="suppliers">
<thead><tr><th scope="col">Supplier</th><th scope="col">Status</th>${IMPORT_PROCESS_STATUSES.map((s) => html`<th scope="col" class="num">${stateHeading(s)}</th>`)}</tr></thead>
<tbody>${suppliers.map(
    (
      s,
    ) => html`<tr><th scope="row"><a href="${supplierPath(s.code)}">${s.code}</a></th><td class="status">${s.status} ${pauseOrResume(ctx, s)}</td>
${IMPORT_PROCESS_STATUSES.map((st) => html`<td class="num">${s.import_processes[st]}</td>`)}</tr>`,
  )}</tbody></table></div>`;
}

function outboxSection(outbox: Awaited<ReturnType<typeof emailOutboxSummary>>) {
  const c = outbox.counts;
  return html`<section aria-labelledby="outbox"><h2 id="outbox">Welcome e-mails</h2>
<p>Sent ${c.SENT} · held for wave approval ${c.HELD} · waiting ${c.PENDING} (retrying ${outbox.retrying}) · sending ${c.SENDING} · failed ${c.FAILED}</p>
${
  outbox.held.length
    ? html`<p data-field="held">Held until their wave is approved, not a delivery problem: ${outbox.held.map(
        (h, i) =>
          html`${i ? ', ' : ''}<a href="${wavePath(h.supplier, h.wave)}">${h.supplier} ${h.wave}</a> ${h.emails}`,
      )}</p>`
    : ''
}
${
  outbox.failures.length
    ? html`<table><caption>Latest permanent failures</caption>
<thead><tr><th scope="col">Failed at</th><th scope="col">Supplier</th><th scope="col">Account</th><th scope="col">Recipient</th><th scope="col" class="num">Attempts</th><th scope="col">Reason</th></tr></thead>
<tbody>${outbox.failures.map(
        (f) =>
          html`<tr><td>${f.failed_at}</td><td>${f.supplier}</td><td>${f.account_number}</td><td>${f.recipient ?? '—'}</td><td class="num">${f.attempts}</td><td>${f.reason}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No failed e-mails.</p>`
}</section>`;
}

function progressSection(snap: SupplierSnapshot): Html {
  return html`<section aria-labelledby="progress" class="progress" data-progress-url="${supplierPath(snap.code)}progress.json">
<h2 id="progress">Progress</h2>
<dl class="counts">${IMPORT_PROCESS_STATUSES.map(
    (s) =>
      html`<div><dt><a href="${processesPath(snap.code, { status: s })}">${s}</a></dt><dd data-count="${s}">${snap.counts[s]}</dd></div>`,
  )}</dl>
<dl class="rate">
<div><dt>Created per minute (last ${RATE_MINUTES} min)</dt><dd data-field="rate_per_minute">${snap.rate_per_minute}</dd></div>
<div><dt>Waiting for a worker</dt><dd data-field="remaining">${snap.remaining}</dd></div>
<div><dt>ETA</dt><dd data-field="eta">${snap.eta}</dd></div>
<div><dt>Created in the last ${CHART_MINUTES} min</dt><dd data-field="created_in_chart">${snap.created_in_chart}</dd></div>
</dl>
<figure><div class="chart" data-chart role="img" aria-label="Accounts created per minute over the last ${CHART_MINUTES} minutes"></div>
<figcaption>Accounts created per minute, last ${CHART_MINUTES} minutes. <span class="live" data-field="updated" aria-live="off"></span></figcaption></figure>
</section>`;
}

/** While the worker's automatic pause holds the supplier (decision 0068): why, with its top error codes. */
function automaticPauseBanner(snap: SupplierSnapshot): Html | null {
  const pause = snap.automatic_pause;
  if (snap.status !== 'Paused' || !pause) return null;
  const at = wireDatetime(pause.paused_at);
  return html`<div class="error" role="alert" data-banner="automatic-pause"><p>Paused automatically at <time datetime="${at}">${at}</time>: ${pause.errored} of the last ${pause.window} finished accounts ERRORED. Resume the supplier once the cause is dealt with.</p>
<p>Top error codes:</p><ul>${pause.top_error_codes.map(
    (c) =>
      html`<li><a href="${processesPath(snap.code, { status: 'ERRORED', error_code: c.code })}"><code>${c.code}</code></a>: ${c.count}</li>`,
  )}</ul></div>`;
}

async function errorsSection(ctx: PageContext, db: Db, code: string) {
  const rows = await errorCodeCounts(db, code);
  const bulk = (action: 'cancel' | 'retry', r: (typeof rows)[number]) =>
    postForm(ctx, `${supplierPath(code)}bulk`, action === 'retry' ? 'Retry all' : 'Cancel all', {
      fields: { action, status: r.status, ...(r.code ? { error_code: r.code } : {}) },
      confirm: `${action === 'retry' ? 'Retry' : 'Cancel'} all ${r.processes} ${r.status} process(es) with ${r.code ?? 'no error code'}?`,
      danger: action === 'cancel',
    });
  return html`<section aria-labelledby="errors"><h2 id="errors">Errors by frequency</h2>
${
  rows.length
    ? html`<table><thead><tr><th scope="col">Error code</th><th scope="col">State</th><th scope="col" class="num">Processes</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows.map(
        (
          r,
        ) => html`<tr><th scope="row"><a href="${processesPath(code, { status: r.status, error_code: r.code ?? undefined })}">${r.code ?? '(no code)'}</a></th><td>${r.status}</td><td class="num">${r.processes}</td>
<td>${r.status === 'ERRORED' ? bulk('retry', r) : null} ${bulk('cancel', r)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No failed processes.</p>`
}</section>`;
}

/** A wave's processes per state, the states it has only, in the state table's order. */
export const processesPerState = (processes: Record<string, number>) =>
  IMPORT_PROCESS_STATUSES.filter((st) => processes[st])
    .map((st) => `${st} ${processes[st]}`)
    .join(' · ') || 'none';

const when = (d: Date | null) => (d ? wireDatetime(d) : '—');

function wavesSection(code: string, waves: WaveSummary[]) {
  return html`<section aria-labelledby="waves"><h2 id="waves">Waves</h2>
${
  waves.length
    ? html`<table><thead><tr><th scope="col">Wave</th><th scope="col">Status</th><th scope="col">Processes per state</th><th scope="col" class="num">Expected accounts</th><th scope="col">Approved</th><th scope="col">Rolled back</th></tr></thead>
<tbody>${waves.map(
        (w) =>
          html`<tr data-wave="${w.wave}"><th scope="row"><a href="${wavePath(code, w.wave)}">${w.wave}</a></th><td data-field="wave-status">${w.status}</td><td>${processesPerState(w.processes)}</td><td class="num">${w.expected_accounts ?? '—'}</td><td>${when(w.approved_at)}</td><td>${when(w.rolled_back_at)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No waves: no process names one and no expectations were uploaded.</p>`
}</section>`;
}

/**
 * Refusals at scheduling by code (decision 0065): accounts the API refused, which left no process.
 * Those for the supplier's state (Paused, Complete) have a line of their own (decision 0081).
 */
async function refusalsSection(db: Db, code: string) {
  const all = (await db.query<RefusalRow>(readSupplierScheduleRefusals, [code])).rows;
  const { data: rows, supplierState } = splitRefusals(all);
  const stateLines = supplierState.map(
    (r) =>
      html`<p data-supplier-state-refusals="${r.code}">While the supplier was ${r.code === 'import_supplier_paused' ? 'paused' : 'complete'}: <strong>${r.refusals}</strong> scheduling requests refused (<code>${r.code}</code>; a waiting push's retries included, nothing wrong with the data), the last ${wireDatetime(r.last_refused_at)}.</p>`,
  );
  return html`<section aria-labelledby="refusals"><h2 id="refusals">Refused at scheduling</h2>
${stateLines}
${
  rows.length
    ? html`<table><thead><tr><th scope="col">Code</th><th scope="col" class="num">Refusals</th><th scope="col">Last</th></tr></thead>
<tbody>${rows.map(
        (r) =>
          html`<tr data-refusal="${r.code}"><th scope="row"><code>${r.code}</code></th><td class="num">${r.refusals}</td><td>${wireDatetime(r.last_refused_at)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No account has been refused for its data.</p>`
}</section>`;
}

export const supplierPages: FastifyPluginAsyncTypebox<{ db: Db; suppliers: SupplierCache }> = async (
  app,
  { db, suppliers },
) => {
  const hide = true;
  const ctxOf = (request: Parameters<typeof sessionOf>[0], q: Parameters<typeof noticeText>[0]) => ({
    csrfToken: sessionOf(request).csrfToken,
    notice: noticeText(q),
  });

  app.get('/', { schema: { hide, querystring: PageQuery } }, async (request, reply) => {
    const ctx = ctxOf(request, request.query);
    const [all, outbox] = await Promise.all([listSuppliersWithCounts(db), emailOutboxSummary(db, 20)]);
    const main = html`<section aria-labelledby="suppliers"><h2 id="suppliers">Import suppliers</h2>${suppliersTable(ctx, all)}</section>
${outboxSection(outbox)}`;
    return sendPage(reply, page(ctx, { title: 'Suppliers', main }));
  });

  app.get(
    '/suppliers/:code/',
    { schema: { hide, params: CodeParams, querystring: PageQuery } },
    async (request, reply) => {
      const { code } = request.params;
      const snap = await supplierSnapshot(db, code);
      if (!snap) throw notFound('No import supplier has that code.');
      const ctx = ctxOf(request, request.query);
      // A div, not a p: a form closes an open p, which put the button on a line of its own.
      const main = html`<div class="status">Status: <strong data-field="status">${snap.status}</strong> ${pauseOrResume(ctx, snap)}
<a href="${processesPath(code)}">All processes</a></div>
${automaticPauseBanner(snap)}
${progressSection(snap)}
${wavesSection(code, await listSupplierWaves(db, code))}
${await errorsSection(ctx, db, code)}
${await refusalsSection(db, code)}`;
      return sendPage(reply, page(ctx, { title: `Supplier ${code}`, main, chart: true }));
    },
  );

  app.get(
    '/suppliers/:code/progress.json',
    { schema: { hide, params: CodeParams } },
    async (request, reply) => {
      const snap = await supplierSnapshot(db, request.params.code);
      if (!snap) throw notFound('No import supplier has that code.');
      return reply.header('cache-control', 'no-store').send(snap);
    },
  );

  app.post(
    '/suppliers/:code/status',
    // Resuming a supplier makes its processes due: the workers are told (decision 0100).
    { config: { makesWorkDue: true }, schema: { hide, params: CodeParams, body: StatusBody } },
    async (request, reply) => {
      const { code } = request.params;
      const updated = await updateSupplierSettings(db, code, { status: request.body.status });
      suppliers.forget(code);
      if (!updated) throw notFound('No import supplier has that code.');
      request.log.info(
        {
          event: 'import_supplier_changed',
          importSupplier: code,
          changed: ['status'],
          status: updated.status,
        },
        'import supplier changed',
      );
      return reply.redirect(
        withNotice(supplierPath(code), updated.status === 'Paused' ? 'paused' : 'resumed'),
        303,
      );
    },
  );

  app.post(
    '/suppliers/:code/bulk',
    // A bulk retry sends processes back to PENDING: the workers are told (decision 0100).
    { config: { makesWorkDue: true }, schema: { hide, params: CodeParams, body: BulkBody } },
    async (request, reply) => {
      const { code } = request.params;
      if (!(await findSupplier(db, code))) throw notFound('No import supplier has that code.');
      const { action, status, error_code } = request.body;
      const outcome = await bulkTransition(
        db,
        { supplier: code, status, ...(error_code ? { error_code } : {}) },
        action,
        { log: request.log },
      );
      return reply.redirect(withNotice(supplierPath(code), `bulk-${action}`, outcome), 303);
    },
  );
};

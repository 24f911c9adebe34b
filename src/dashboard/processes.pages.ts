import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { refuseUnlessDone } from '../account-import/operator/process.admin-routes.ts';
import {
  cancelImportProcess,
  retryImportProcess,
} from '../account-import/operator/process-actions.queries.ts';
import { findImportProcessDetail } from '../account-import/operator/process-detail.queries.ts';
import { listProcessesPage } from '../account-import/operator/process-lists.queries.ts';
import { logProcessEvents } from '../account-import/process-event-log.ts';
import { type Holding, identifierHoldings } from '../account-import/reservations/reservations.queries.ts';
import { KIND_NAMES } from '../accounts/payload/unique-identifiers.ts';
import { notFound } from '../errors/error-catalogue.ts';
import { StringEnum } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import { findSupplier } from '../suppliers/suppliers.queries.ts';
import { allows, IMPORT_PROCESS_STATUSES } from '../vocabulary/import-process-states.ts';
import { wireDatetime } from '../vocabulary/wire-datetime.ts';
import { sendPage, sessionOf } from './dashboard-auth.ts';
import { html, seg } from './html.ts';
import { page, postForm } from './layout.ts';
import { NoticeQuery, noticeText, withNotice } from './notices.ts';
import { payloadTree } from './payload-view.ts';
import { processesPath, supplierPath } from './suppliers.pages.ts';

const PAGE_SIZE = 50;
const CodeParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
const ListQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(IMPORT_PROCESS_STATUSES)),
    error_code: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' })),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$' })),
  },
  { additionalProperties: false },
);
const ProcessParams = Type.Object({
  supplier: Type.String({ minLength: 1, maxLength: 64 }),
  external: Type.String({ minLength: 1 }),
});
const PageQuery = Type.Object(NoticeQuery, { additionalProperties: false });
const CsrfOnly = Type.Object({ _csrf: Type.String() }, { additionalProperties: false });

export const processPath = (supplier: string, external: string) =>
  `/dashboard/processes/${seg(supplier)}/${seg(external)}/`;

const shortEvent = (event: string) => event.replace('EVENT_ACCOUNT_IMPORT_PROCESS_', '');

const ACTIONS: Record<
  'cancel' | 'retry',
  (db: Db, s: string, e: string) => ReturnType<typeof cancelImportProcess>
> = {
  cancel: cancelImportProcess,
  retry: retryImportProcess,
};

/** What a holder of one of the process's identifiers is, in words (a link when it is the supplier's). */
function holderCell(supplier: string, h: Holding) {
  if (h.held === 'self') return html`this process`;
  if (h.held === 'free') return html`nobody (not reserved)`;
  if (h.held === 'other_supplier') return html`another supplier's process`;
  return html`<a href="${processPath(supplier, h.external)}">${h.external}</a>${h.accountNumber ? html` (account ${h.accountNumber})` : null}`;
}

/** The identifiers no other account may carry, and who holds each (decision 0064). */
function identifiersSection(supplier: string, holdings: Awaited<ReturnType<typeof identifierHoldings>>) {
  if (holdings.length === 0) return null;
  return html`<section aria-labelledby="identifiers"><h2 id="identifiers">Identifiers</h2>
<table><thead><tr><th scope="col">Kind</th><th scope="col">Identifier</th><th scope="col">Where</th><th scope="col">Held by</th></tr></thead>
<tbody>${holdings.map(
    (h) =>
      html`<tr data-held="${h.held}"><td>${KIND_NAMES[h.kind]}</td><td><code>${h.key}</code></td><td><code>${h.attr}</code></td><td>${holderCell(supplier, h)}</td></tr>`,
  )}</tbody></table></section>`;
}

export const processPages: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const hide = true;

  app.get(
    '/suppliers/:code/processes/',
    { schema: { hide, params: CodeParams, querystring: ListQuery } },
    async (request, reply) => {
      const { code } = request.params;
      if (!(await findSupplier(db, code))) throw notFound('No import supplier has that code.');
      const { status, error_code, cursor } = request.query;
      const filter = { supplier: code, ...(status ? { status } : {}), ...(error_code ? { error_code } : {}) };
      const list = await listProcessesPage(db, filter, { cursor: cursor ?? '0', limit: PAGE_SIZE });
      const ctx = { csrfToken: sessionOf(request).csrfToken };
      const described = [status ?? 'every state', error_code ? `latest error ${error_code}` : null]
        .filter(Boolean)
        .join(', ');
      const main = html`<p><a href="${supplierPath(code)}">← Supplier ${code}</a> · ${described}</p>
${
  list.results.length
    ? html`<table><thead><tr><th scope="col">External account number</th><th scope="col">State</th><th scope="col">Latest error</th><th scope="col" class="num">Attempts</th><th scope="col">Account</th><th scope="col">Changed</th></tr></thead>
<tbody>${list.results.map(
        (
          p,
        ) => html`<tr><th scope="row"><a href="${processPath(code, p.external_account_number)}">${p.external_account_number}</a></th><td>${p.status}</td>
<td>${p.latest_error ? html`<code>${p.latest_error.code}</code> ${p.latest_error.detail}` : '—'}</td><td class="num">${p.attempts}</td><td>${p.service_account_number ?? '—'}</td><td>${p.modified_at}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No processes match.</p>`
}
${list.next_cursor ? html`<p><a href="${processesPath(code, { status, error_code, cursor: list.next_cursor })}">Next page</a></p>` : null}`;
      return sendPage(reply, page(ctx, { title: `Processes of ${code}`, main }));
    },
  );

  app.get(
    '/processes/:supplier/:external/',
    { schema: { hide, params: ProcessParams, querystring: PageQuery } },
    async (request, reply) => {
      const { supplier, external } = request.params;
      const d = await findImportProcessDetail(db, supplier, external);
      if (!d) throw notFound('No import process exists for that supplier and external account number.');
      const holdings = await identifierHoldings(db, { supplier, external, payload: d.payload });
      const ctx = { csrfToken: sessionOf(request).csrfToken, notice: noticeText(request.query) };
      const status = d.status;
      const latestError = d.latest_error;
      const actions = (['retry', 'cancel'] as const)
        .filter((a) => allows(status, a))
        .map((a) =>
          postForm(ctx, `${processPath(supplier, external)}${a}`, a === 'retry' ? 'Retry' : 'Cancel', {
            danger: a === 'cancel',
            confirm: a === 'cancel' ? 'Cancel this process?' : undefined,
          }),
        );
      const main = html`<p><a href="${supplierPath(supplier)}">← Supplier ${supplier}</a></p>
<dl class="facts">
<div><dt>State</dt><dd data-field="status">${status}</dd></div>
<div><dt>Latest error</dt><dd>${latestError ? html`<code>${latestError.code}</code> ${latestError.detail}` : '—'}</dd></div>
<div><dt>Account</dt><dd>${d.account_number ?? '—'}</dd></div>
<div><dt>Attempts</dt><dd>${String(d.attempts)}</dd></div>
<div><dt>Dry run</dt><dd>${d.is_dry_run ? 'yes' : 'no'}</dd></div>
<div><dt>Mapping profile</dt><dd data-field="mapping-profile">${d.mapping_profile ? `${d.mapping_profile.name} version ${d.mapping_profile.version}` : '—'}</dd></div>
</dl>
${actions.length ? html`<p class="actions">${actions}</p>` : null}
<section aria-labelledby="timeline"><h2 id="timeline">Event timeline</h2>
<ol class="timeline">${d.events.map(
        (
          e,
        ) => html`<li><time datetime="${wireDatetime(e.occurred_at)}">${wireDatetime(e.occurred_at)}</time> <strong>${shortEvent(e.event)}</strong>
${e.data ? html`<details><summary>data</summary><pre>${JSON.stringify(e.data, null, 2)}</pre></details>` : null}</li>`,
      )}</ol></section>
${identifiersSection(supplier, holdings)}
<section aria-labelledby="payload"><h2 id="payload">Stored payload</h2>
${payloadTree(d.payload)}
<details><summary>As JSON</summary><pre class="json">${JSON.stringify(d.payload, null, 2)}</pre></details>
</section>`;
      return sendPage(reply, page(ctx, { title: `Process ${external}`, main }));
    },
  );

  for (const action of ['cancel', 'retry'] as const) {
    app.post(
      `/processes/:supplier/:external/${action}`,
      // A retry sends the process back to PENDING: the workers are told (decision 0100).
      { config: { makesWorkDue: true }, schema: { hide, params: ProcessParams, body: CsrfOnly } },
      async (request, reply) => {
        const { supplier, external } = request.params;
        refuseUnlessDone(
          await ACTIONS[action](db, supplier, external),
          action === 'cancel' ? 'cancelled' : 'retried',
        );
        logProcessEvents(request.log, action, [{ supplier, externalAccountNumber: external }]);
        return reply.redirect(
          withNotice(processPath(supplier, external), action === 'cancel' ? 'cancelled' : 'retried'),
          303,
        );
      },
    );
  }
};

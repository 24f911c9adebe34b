/**
 * /dashboard/webhooks/: the webhook endpoints (decision 0072), each with its state (a banner when
 * it is disabled or failing), its pending and failed deliveries, its latest deliveries with every
 * attempt, and the operator's acts: send a test event, disable, enable. The same service
 * functions as the admin API; endpoints are registered there (their secret is shown only once).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors/error-catalogue.ts';
import {
  type DeliveryView,
  type EndpointView,
  listEndpoints,
  queueTestEvent,
  recentDeliveries,
  setEnabled,
} from '../events/webhooks/webhook-endpoints.ts';
import { StringEnum } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import { sendPage, sessionOf } from './dashboard-auth.ts';
import { html, query, seg } from './html.ts';
import { type PageContext, page, postForm } from './layout.ts';

export const WEBHOOKS_PATH = '/dashboard/webhooks/';
/** Deliveries shown per endpoint. */
const RECENT = 20;

/** What the page after an act says about it (the text is Ferry's own, never the URL's). */
const DONE = {
  'test-queued': 'A test event (EVENT_WEBHOOK_TEST) is queued for the endpoint; its delivery shows below.',
  enabled: 'The endpoint is enabled: its waiting deliveries go out again, and its failures count afresh.',
  disabled: 'The endpoint is disabled: its deliveries wait until it is enabled again.',
} as const;
type Done = keyof typeof DONE;

const PageQuery = Type.Object(
  { done: Type.Optional(StringEnum(Object.keys(DONE) as Done[])) },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const CsrfOnly = Type.Object({ _csrf: Type.String() }, { additionalProperties: false });
const EnabledBody = Type.Object(
  { _csrf: Type.String(), enabled: StringEnum(['true', 'false'] as const) },
  { additionalProperties: false },
);

const endpointPath = (id: string) => `${WEBHOOKS_PATH}${seg(id)}/`;

function banner(e: EndpointView) {
  if (!e.enabled)
    return html`<p class="error" role="alert" data-field="banner">Disabled since ${e.disabled_at}: ${e.disabled_reason}. Its deliveries wait; enable it once the receiver answers again.</p>`;
  if (e.failing_since)
    return html`<p class="error" data-field="banner">Failing since ${e.failing_since}: every attempt since then failed. After 24 hours of failures the endpoint is disabled.</p>`;
  return null;
}

function attemptsList(d: DeliveryView) {
  if (d.attempts.length === 0) return html`—`;
  return html`<ul class="measures">${d.attempts.map(
    (a) =>
      html`<li><time datetime="${a.at}">${a.at}</time> ${a.status_code ?? 'no answer'} · ${a.duration_ms} ms${a.error ? html` · ${a.error}` : null}</li>`,
  )}</ul>`;
}

function deliveriesTable(e: EndpointView, deliveries: DeliveryView[]) {
  if (deliveries.length === 0) return html`<p>No deliveries yet.</p>`;
  return html`<div class="scroll"><table data-table="deliveries">
<caption>Latest deliveries to ${e.url}, newest first</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Attempts</th></tr></thead>
<tbody>${deliveries.map(
    (d) =>
      html`<tr data-delivery="${d.event_id}"><th scope="row"><code>${d.event_id}</code></th><td>${d.type}</td><td>${d.state}${d.state === 'pending' && d.next_attempt_at ? html` (next ${d.next_attempt_at})` : null}</td><td>${attemptsList(d)}</td></tr>`,
  )}</tbody></table></div>`;
}

function endpointSection(ctx: PageContext, e: EndpointView, deliveries: DeliveryView[]) {
  const headingId = `endpoint-${e.id}`;
  return html`<section aria-labelledby="${headingId}" data-endpoint="${e.id}">
<h2 id="${headingId}">${e.url}</h2>
${banner(e)}
<dl class="facts">
<div><dt>State</dt><dd data-field="state">${e.enabled ? 'enabled' : 'disabled'}</dd></div>
<div><dt>Suppliers</dt><dd>${e.import_suppliers.includes('*') ? 'every supplier' : e.import_suppliers.join(', ')}</dd></div>
<div><dt>Types</dt><dd>${e.types ? e.types.join(', ') : 'every type'}</dd></div>
<div><dt>Pending</dt><dd data-field="pending">${e.pending}</dd></div>
<div><dt>Failed</dt><dd data-field="failed">${e.failed}</dd></div>
<div><dt>Failing since</dt><dd>${e.failing_since ?? '—'}</dd></div>
<div><dt>Created</dt><dd>${e.created_at}</dd></div>
<div><dt>Id</dt><dd><code>${e.id}</code></dd></div>
</dl>
<p>${postForm(ctx, `${endpointPath(e.id)}test`, 'Send test event')}
${
  e.enabled
    ? postForm(ctx, `${endpointPath(e.id)}enabled`, 'Disable', {
        fields: { enabled: 'false' },
        danger: true,
        confirm: `Disable the endpoint ${e.url}? Its deliveries wait until it is enabled again.`,
      })
    : postForm(ctx, `${endpointPath(e.id)}enabled`, 'Enable', { fields: { enabled: 'true' } })
}</p>
${deliveriesTable(e, deliveries)}
</section>`;
}

export const webhookPages: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const hide = true;

  app.get('/webhooks/', { schema: { hide, querystring: PageQuery } }, async (request, reply) => {
    const { done } = request.query;
    const ctx = { csrfToken: sessionOf(request).csrfToken, notice: done ? DONE[done] : null };
    const endpoints = await listEndpoints(db);
    const sections = [];
    for (const e of endpoints)
      sections.push(endpointSection(ctx, e, await recentDeliveries(db, e.id, RECENT)));
    const main = html`<p>Each event is POSTed to every endpoint that hears of its supplier and type, signed with the endpoint’s secret; failures are retried for 72 hours. Register endpoints with <code>POST /admin/v1/webhook-endpoints/</code>.</p>
${endpoints.length === 0 ? html`<p>No webhook endpoints yet.</p>` : sections}`;
    return sendPage(reply, page(ctx, { title: 'Webhooks', main }));
  });

  app.post(
    '/webhooks/:id/test',
    { schema: { hide, params: IdParams, body: CsrfOnly } },
    async (request, reply) => {
      const eventId = await queueTestEvent(db, request.params.id);
      if (eventId === null) throw notFound('No webhook endpoint has this id.');
      request.log.info(
        { event: 'webhook_test_queued', endpointId: request.params.id, eventId },
        'webhook test event queued',
      );
      return reply.redirect(`${WEBHOOKS_PATH}${query({ done: 'test-queued' })}`, 303);
    },
  );

  app.post(
    '/webhooks/:id/enabled',
    { schema: { hide, params: IdParams, body: EnabledBody } },
    async (request, reply) => {
      const enabled = request.body.enabled === 'true';
      if (!(await setEnabled(db, request.params.id, enabled)))
        throw notFound('No webhook endpoint has this id.');
      request.log.info(
        {
          event: enabled ? 'webhook_endpoint_enabled' : 'webhook_endpoint_disabled',
          endpointId: request.params.id,
          by: 'operator',
        },
        `webhook endpoint ${enabled ? 'enabled' : 'disabled'}`,
      );
      return reply.redirect(`${WEBHOOKS_PATH}${query({ done: enabled ? 'enabled' : 'disabled' })}`, 303);
    },
  );
};

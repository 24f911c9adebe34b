import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type ApiKeyRecord, createApiKey, listApiKeys } from '../auth/api-keys.ts';
import type { KeyScopes } from '../auth/key-scopes.ts';
import { notFound, validationFailed } from '../errors/error-catalogue.ts';
import { item } from '../errors/error-items.ts';
import type { Db } from '../infra/db/db.ts';
import { wireDatetime } from '../vocabulary/wire-datetime.ts';
import { sendPage, sessionOf } from './dashboard-auth.ts';
import { html, seg } from './html.ts';
import { type PageContext, page, postForm } from './layout.ts';
import { NoticeQuery, noticeText, withNotice } from './notices.ts';

const KEYS_PATH = '/dashboard/api-keys/';
const SUPPLIER_SCOPE = /^([A-Za-z0-9_-]{1,64}|\*)$/;

const PageQuery = Type.Object(NoticeQuery, { additionalProperties: false });
const CreateBody = Type.Object(
  {
    _csrf: Type.String(),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    import_suppliers: Type.String({ minLength: 1, maxLength: 10_000 }),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const CsrfOnly = Type.Object({ _csrf: Type.String() }, { additionalProperties: false });

/** "A, B c" → ['A', 'B', 'c']: the same codes the admin API's array takes, or `*` for all. */
function supplierScope(text: string): string[] {
  const codes = [...new Set(text.split(/[\s,]+/).filter((c) => c !== ''))];
  const bad = codes.filter((c) => !SUPPLIER_SCOPE.test(c));
  if (codes.length === 0 || bad.length > 0) {
    throw validationFailed('validation_error', [
      item(
        'import_suppliers',
        'invalid',
        'Name supplier codes (letters, digits, _ and -), separated by commas or spaces, or * for every supplier.',
      ),
    ]);
  }
  return codes;
}

function keysPage(ctx: PageContext, keys: ApiKeyRecord[], issued: { name: string; key: string } | null) {
  const main = html`${
    issued
      ? html`<section class="issued" aria-labelledby="issued"><h2 id="issued">New key for ${issued.name}</h2>
<p>Copy it now: Ferry keeps only its hash and will not show it again.</p>
<p><code class="secret" data-field="new-key">${issued.key}</code></p></section>`
      : null
  }
<section aria-labelledby="create"><h2 id="create">Create a key</h2>
<form method="post" action="${KEYS_PATH}" class="stack">
<input type="hidden" name="_csrf" value="${ctx.csrfToken}">
<label for="key-name">Name</label>
<input id="key-name" name="name" required maxlength="200">
<label for="key-suppliers">Suppliers (codes separated by commas, or *)</label>
<input id="key-suppliers" name="import_suppliers" required>
<button type="submit">Create key</button>
</form></section>
<section aria-labelledby="keys"><h2 id="keys">Keys</h2>
${
  keys.length
    ? html`<table><thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Suppliers</th><th scope="col">Created</th><th scope="col">Revoked</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>${keys.map(
        (
          k,
        ) => html`<tr><th scope="row">${k.name}</th><td><code>${k.id}</code></td><td>${k.import_suppliers.join(', ')}</td><td>${wireDatetime(k.created_at)}</td><td>${wireDatetime(k.revoked_at) ?? '—'}</td>
<td>${k.revoked_at ? null : postForm(ctx, `${KEYS_PATH}${seg(k.id)}/revoke`, 'Revoke', { danger: true, confirm: `Revoke the key ${k.name}?` })}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No API keys yet.</p>`
}</section>`;
  return page(ctx, { title: 'API keys', main });
}

export const apiKeyPages: FastifyPluginAsyncTypebox<{ db: Db; keyScopes: KeyScopes }> = async (
  app,
  { db, keyScopes },
) => {
  const hide = true;
  app.get('/api-keys/', { schema: { hide, querystring: PageQuery } }, async (request, reply) => {
    const ctx = { csrfToken: sessionOf(request).csrfToken, notice: noticeText(request.query) };
    return sendPage(reply, keysPage(ctx, await listApiKeys(db), null));
  });

  // Answered with the page itself, not a redirect: the key is in this answer and nowhere else.
  app.post('/api-keys/', { schema: { hide, body: CreateBody } }, async (request, reply) => {
    const { name, import_suppliers } = request.body;
    const k = await createApiKey(db, { name, importSuppliers: supplierScope(import_suppliers) });
    request.log.info(
      { event: 'api_key_created', apiKeyId: k.id, name: k.name, importSuppliers: k.import_suppliers },
      'API key created',
    );
    const ctx = { csrfToken: sessionOf(request).csrfToken };
    return sendPage(reply, keysPage(ctx, await listApiKeys(db), { name: k.name, key: k.key }), 201);
  });

  app.post(
    '/api-keys/:id/revoke',
    { schema: { hide, params: IdParams, body: CsrfOnly } },
    async (request, reply) => {
      if (!(await keyScopes.revoke(request.params.id))) throw notFound('No API key has that id.');
      request.log.info({ event: 'api_key_revoked', apiKeyId: request.params.id }, 'API key revoked');
      return reply.redirect(withNotice(KEYS_PATH, 'revoked'), 303);
    },
  );
};

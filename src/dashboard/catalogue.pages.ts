/**
 * /dashboard/catalogue/: the product catalogue and code lists the account checks use (decision
 * 0090): the versions, the tariffs per region and payment method, the accounts using each product,
 * the tariffs accounts use that the catalogue does not hold, and each code list's version. With
 * nothing uploaded it says that tariff codes are checked for their form only.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PRODUCTS } from '../catalogue/catalogue.queries.ts';
import { cataloguePageFacts } from '../catalogue/catalogue-page.queries.ts';
import { listCodeLists } from '../catalogue/code-lists.queries.ts';
import { recentVersions } from '../catalogue/reference-versions.queries.ts';
import type { Db } from '../infra/db/db.ts';
import { sendPage, sessionOf } from './dashboard-auth.ts';
import { html } from './html.ts';
import { page } from './layout.ts';

const when = (at: Date) => html`<time datetime="${at.toISOString()}">${at.toISOString()}</time>`;

export const cataloguePages: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get('/catalogue/', { schema: { hide: true } }, async (request, reply) => {
    const ctx = { csrfToken: sessionOf(request).csrfToken, notice: null };
    const [versions, lists] = await Promise.all([recentVersions(db, PRODUCTS), listCodeLists(db)]);
    const current = versions[0];
    const listsTable = html`<div class="scroll"><table data-table="code-lists">
<caption>Code lists</caption>
<thead><tr><th scope="col">List</th><th scope="col">Version</th><th scope="col">Values</th><th scope="col">Uploaded</th></tr></thead>
<tbody>${lists.map(
      (l) =>
        html`<tr data-list="${l.name}"><th scope="row">${l.name}</th>${
          l.version
            ? html`<td>${l.version.version}</td><td>${l.version.counts.values}</td><td>${when(l.version.uploaded_at)} by ${l.version.uploaded_by}</td>`
            : html`<td colspan="3">none loaded: form check only</td>`
        }</tr>`,
    )}</tbody></table></div>`;
    if (!current) {
      const main = html`<p data-field="catalogue">No catalogue is loaded: tariff and product codes are checked for their form only. Upload one with <code>ferry catalogue push FILE</code>.</p>
${listsTable}`;
      return sendPage(reply, page(ctx, { title: 'Catalogue', main }));
    }
    const facts = await cataloguePageFacts(db, current.version);
    const main = html`<p data-field="catalogue">Version ${current.version}: ${current.counts.products} products, ${current.counts.tariffs} tariffs, uploaded ${when(current.uploaded_at)} by ${current.uploaded_by}.</p>
<div class="scroll"><table data-table="versions">
<caption>Versions, newest first</caption>
<thead><tr><th scope="col">Version</th><th scope="col">Products</th><th scope="col">Tariffs</th><th scope="col">Uploaded</th></tr></thead>
<tbody>${versions.map(
      (v) =>
        html`<tr><th scope="row">${v.version}</th><td>${v.counts.products}</td><td>${v.counts.tariffs}</td><td>${when(v.uploaded_at)} by ${v.uploaded_by}</td></tr>`,
    )}</tbody></table></div>
<div class="scroll"><table data-table="regions">
<caption>Tariffs per region and payment method</caption>
<thead><tr><th scope="col">Region</th><th scope="col">Payment method</th><th scope="col">Tariffs</th></tr></thead>
<tbody>${facts.perRegion.map(
      (r) => html`<tr><th scope="row">${r.region}</th><td>${r.payment_method}</td><td>${r.tariffs}</td></tr>`,
    )}</tbody></table></div>
<div class="scroll"><table data-table="products">
<caption>Accounts using each product (the 200 most used)</caption>
<thead><tr><th scope="col">Product</th><th scope="col">Accounts</th></tr></thead>
<tbody>${facts.perProduct.map(
      (p) =>
        html`<tr data-product="${p.product_code}"><th scope="row">${p.product_code}</th><td>${p.accounts}</td></tr>`,
    )}</tbody></table></div>
${
  facts.notInCatalogue.length === 0
    ? null
    : html`<div class="scroll"><table data-table="not-in-catalogue">
<caption>Tariffs accounts use that are not in the catalogue (imported before it)</caption>
<thead><tr><th scope="col">Tariff</th><th scope="col">Accounts</th></tr></thead>
<tbody>${facts.notInCatalogue.map(
        (t) =>
          html`<tr data-tariff="${t.tariff_code}"><th scope="row">${t.tariff_code}</th><td>${t.accounts}</td></tr>`,
      )}</tbody></table></div>`
}
${listsTable}`;
    return sendPage(reply, page(ctx, { title: 'Catalogue', main }));
  });
};

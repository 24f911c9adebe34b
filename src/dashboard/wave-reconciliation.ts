/**
 * The reconciliation section of a wave's page: the accounts counted by kind and the differing
 * ones by measure (each count a link that narrows the list to it), the totals of every measure
 * with its definition, and the accounts that do not match, filtered by kind and measure.
 */
import { Type } from '@sinclair/typebox';
import {
  ACCOUNT_MEASURES,
  type AccountMeasure,
  DIFFERENCE_KINDS,
  type DifferenceKind,
  MEASURE_DEFINITIONS,
} from '../account-import/waves/measures.ts';
import type {
  AccountDifference,
  Reconciliation,
  WaveRecord,
} from '../account-import/waves/reconciliation.queries.ts';
import { StringEnum } from '../http/schemas.ts';
import { wireDatetime } from '../vocabulary/wire-datetime.ts';
import { html, query } from './html.ts';
import { processPath } from './processes.pages.ts';

/** The wave page's filter of its differences (query parameters; the form's "any" sends ''). */
export const DifferenceFilterQuery = {
  kind: Type.Optional(StringEnum(['', ...DIFFERENCE_KINDS] as const)),
  measure: Type.Optional(StringEnum(['', ...ACCOUNT_MEASURES] as const)),
};
export interface DifferenceFilter {
  kind?: DifferenceKind;
  measure?: AccountMeasure;
}

/** The filter the page's query asks for ('' is any). */
export const filterOf = (q: {
  kind?: DifferenceKind | '';
  measure?: AccountMeasure | '';
}): DifferenceFilter => ({
  kind: q.kind || undefined,
  measure: q.measure || undefined,
});

const when = (d: Date) => html`<time datetime="${wireDatetime(d)}">${wireDatetime(d)}</time>`;

const measureCell = (m: AccountDifference['measures'][number]) =>
  html`<li><code>${m.measure}</code>: expected ${m.expected ?? '—'}, stored ${m.stored ?? '—'}</li>`;

/** How many accounts the filter keeps, from the summary's counts (null: not known from them). */
function keptCount(r: Reconciliation, f: DifferenceFilter): number | null {
  const a = r.accounts;
  if (f.measure) return f.kind && f.kind !== 'differing' ? 0 : r.differing_measures[f.measure];
  if (f.kind) return a[f.kind];
  return a.differing + a.missing + a.unexpected;
}

function filterForm(path: string, f: DifferenceFilter) {
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html` selected` : null}>${label}</option>`;
  return html`<form method="get" action="${path}" class="inline" aria-label="Filter the accounts that do not match">
<label for="kind">Kind</label> <select id="kind" name="kind">${option('', 'any', !f.kind)}${DIFFERENCE_KINDS.map((k) => option(k, k, f.kind === k))}</select>
<label for="measure">Measure</label> <select id="measure" name="measure">${option('', 'any', !f.measure)}${ACCOUNT_MEASURES.map((m) => option(m, m, f.measure === m))}</select>
<button type="submit">Filter</button>${f.kind || f.measure ? html` <a href="${path}">Show all</a>` : null}
</form>`;
}

export function reconciliationSection(
  view: { code: string; path: string; filter: DifferenceFilter },
  r: Reconciliation,
  record: WaveRecord | null,
  differences: AccountDifference[],
) {
  const { code, path, filter } = view;
  const a = r.accounts;
  const link = (f: DifferenceFilter, n: number) =>
    n > 0 ? html`<a href="${path}${query({ ...f })}">${n}</a>` : html`${n}`;
  const counts = html`<dl class="counts">${(['expected', 'imported', 'matched'] as const).map(
    (k) => html`<div><dt>${k}</dt><dd data-account-count="${k}">${a[k]}</dd></div>`,
  )}${DIFFERENCE_KINDS.map(
    (k) => html`<div><dt>${k}</dt><dd data-account-count="${k}">${link({ kind: k }, a[k])}</dd></div>`,
  )}</dl>
<dl class="counts" aria-label="Differing accounts per measure">${ACCOUNT_MEASURES.map(
    (m) =>
      html`<div><dt>differing in <code>${m}</code></dt><dd data-measure-count="${m}">${link({ kind: 'differing', measure: m }, r.differing_measures[m])}</dd></div>`,
  )}</dl>`;
  const totals = html`<table><caption>Totals</caption>
<thead><tr><th scope="col">Measure</th><th scope="col" class="num">Expected</th><th scope="col" class="num">Stored</th><th scope="col" class="num">Difference</th></tr></thead>
<tbody>${r.totals.map(
    (t) =>
      html`<tr data-measure="${t.measure}"><th scope="row"><code title="${MEASURE_DEFINITIONS[t.measure]}">${t.measure}</code></th><td class="num">${t.expected}</td><td class="num">${t.stored}</td><td class="num">${t.difference}</td></tr>`,
  )}</tbody></table>
<details><summary>What each measure is</summary><dl>${r.totals.map(
    (t) => html`<dt><code>${t.measure}</code></dt><dd>${MEASURE_DEFINITIONS[t.measure]}</dd>`,
  )}</dl></details>`;
  const kept = keptCount(r, filter);
  const filtered = filter.kind || filter.measure;
  const what = filtered
    ? html` (${[filter.kind, filter.measure && html`differing in <code>${filter.measure}</code>`].filter(Boolean).map((x, i) => html`${i ? ', ' : ''}${x}`)})`
    : null;
  const more = kept !== null && kept > differences.length;
  const list = differences.length
    ? html`<table><caption>Accounts that do not match${what}${more ? html` (the first ${differences.length} of ${kept})` : null}</caption>
<thead><tr><th scope="col">Account</th><th scope="col">Kind</th><th scope="col">Measures</th></tr></thead>
<tbody>${differences.map(
        (d) =>
          html`<tr data-difference="${d.external_account_number}"><th scope="row"><a href="${processPath(code, d.external_account_number)}">${d.external_account_number}</a></th><td>${d.kind}</td><td><ul class="measures">${d.measures.map(measureCell)}</ul></td></tr>`,
      )}</tbody></table>
${more ? html`<p>All ${kept}: <code>ferry wave reconcile</code> (with <code>--kind</code>, <code>--measure</code>) or the supplier API's <code>…/reconciliation/differences/</code> (NDJSON).</p>` : null}`
    : filtered
      ? html`<p>No account that does not match is of this kind and measure.</p>`
      : html`<p>Every account matches.</p>`;
  return html`<section aria-labelledby="reconciliation"><h2 id="reconciliation">Reconciliation</h2>
${
  record?.expectations_uploaded_at
    ? html`<p>Expectations uploaded ${when(record.expectations_uploaded_at)}.</p>`
    : html`<p>No expectations uploaded: the supplier sends them to <code>PUT /v2/data-import/waves/…/expectations/</code>.</p>`
}
${counts}${totals}${filterForm(path, filter)}${list}</section>`;
}

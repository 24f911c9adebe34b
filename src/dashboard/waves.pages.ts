/**
 * A wave's page (decision 0070): its progress, its reconciliation with the source system's
 * figures, its held welcome e-mails, and the operator's two acts on it, approval and rollback
 * (previewed by a dry run, then confirmed by typing the wave's name), over the same service
 * functions as the admin API. A 409 of either act comes back as a notice on the wave's page.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  type AccountDifference,
  reconcileWave,
  type WaveRecord,
  waveDifferences,
  waveRecord,
} from '../account-import/waves/reconciliation.queries.ts';
import { checkWaveName, WaveName } from '../account-import/waves/wave.schemas.ts';
import { approveWave, OPERATOR } from '../account-import/waves/wave-approval.ts';
import {
  heldWelcomeEmails,
  type WaveMappingProfile,
  waveExists,
  waveMappingProfiles,
  waveProcessCounts,
  waveStatus,
} from '../account-import/waves/wave-list.queries.ts';
import { rollBackWave, type WaveRollback } from '../account-import/waves/wave-rollback.ts';
import { ApiError, notFound } from '../errors/error-catalogue.ts';
import { StringEnum } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import { findSupplier } from '../suppliers/suppliers.queries.ts';
import { IMPORT_PROCESS_STATUSES } from '../vocabulary/import-process-states.ts';
import { wireDatetime } from '../vocabulary/wire-datetime.ts';
import { sendPage, sessionOf } from './dashboard-auth.ts';
import { html } from './html.ts';
import { type PageContext, page, postForm } from './layout.ts';
import { NoticeQuery, noticeOf, WAVE_REFUSALS, withNotice } from './notices.ts';
import { REMAINING_STATES } from './progress.ts';
import { processesPath, supplierPath, wavePath } from './suppliers.pages.ts';
import { DifferenceFilterQuery, filterOf, reconciliationSection } from './wave-reconciliation.ts';

/** Differing accounts listed on the page; the rest are counted. */
const DIFFERENCES_SHOWN = 50;

const WaveParams = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }), wave: WaveName });
const PageQuery = Type.Object(NoticeQuery, { additionalProperties: false });
const WavePageQuery = Type.Object(
  { ...NoticeQuery, ...DifferenceFilterQuery },
  { additionalProperties: false },
);
const ApproveBody = Type.Object(
  { _csrf: Type.String(), force: Type.Optional(StringEnum(['true'] as const)) },
  { additionalProperties: false },
);
const RollbackBody = Type.Object(
  { _csrf: Type.String(), wave_name: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

const when = (d: Date | null | undefined) =>
  d ? html`<time datetime="${wireDatetime(d)}">${wireDatetime(d)}</time>` : '—';

/** 404 unless the supplier exists and the wave is named by a process or has a `waves` row. */
async function knownWave(db: Db, code: string, wave: string) {
  if (!(await findSupplier(db, code))) throw notFound('No import supplier has that code.');
  if (!(await waveExists(db, code, wave)))
    throw notFound(
      `Supplier ${code} has no wave ${wave}: no process names it and no expectations were uploaded.`,
    );
}

/** The page a refused act goes back to, with the refusal's notice; other errors are thrown on. */
function refusalRedirect(error: unknown, back: string): string {
  if (!(error instanceof ApiError)) throw error;
  const name = WAVE_REFUSALS[error.code];
  if (!name) throw error;
  const sent = error.body.emails_sent;
  return withNotice(back, name, typeof sent === 'number' ? { changed: sent } : {});
}

function progressSection(code: string, counts: Record<string, number>) {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const waiting = REMAINING_STATES.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  return html`<section aria-labelledby="progress"><h2 id="progress">Progress</h2>
<p><label for="wave-progress">${total - waiting} of ${total} process(es) finished</label>
<progress id="wave-progress" max="${Math.max(total, 1)}" value="${total - waiting}"></progress></p>
<dl class="counts">${IMPORT_PROCESS_STATUSES.map(
    (s) =>
      html`<div><dt><a href="${processesPath(code, { status: s })}">${s}</a></dt><dd data-count="${s}">${counts[s] ?? 0}</dd></div>`,
  )}</dl></section>`;
}

/** Which mapping profile versions built the wave's processes (provenance), with their counts. */
function profilesSection(profiles: WaveMappingProfile[]) {
  if (profiles.every((p) => p.name === null)) return null;
  return html`<section aria-labelledby="profiles"><h2 id="profiles">Mapping profiles</h2>
<table><thead><tr><th scope="col">Profile</th><th scope="col" class="num">Version</th><th scope="col" class="num">Processes</th></tr></thead>
<tbody>${profiles.map(
    (p) =>
      html`<tr data-profile="${p.name === null ? '' : `${p.name}@${p.version}`}"><th scope="row">${p.name ?? 'none (not sent with a profile)'}</th><td class="num">${p.version ?? '—'}</td><td class="num" data-count="processes">${p.processes}</td></tr>`,
  )}</tbody></table></section>`;
}

function recordSection(record: WaveRecord | null, held: number) {
  const approval = record?.approval as { forced?: boolean } | null | undefined;
  return html`<section aria-labelledby="record"><h2 id="record">Approval and rollback</h2>
<dl class="facts">
<div><dt>Held welcome e-mails</dt><dd data-field="held-emails">${held}</dd></div>
<div><dt>Approved</dt><dd data-field="approved">${record?.approved_at ? html`${when(record.approved_at)} by ${record.approved_by}${approval?.forced ? ' (forced past differences)' : ''}` : 'no'}</dd></div>
<div><dt>Rolled back</dt><dd data-field="rolled-back">${record?.rolled_back_at ? html`${when(record.rolled_back_at)} by ${record.rolled_back_by}` : 'no'}</dd></div>
</dl></section>`;
}

function actionsSection(ctx: PageContext, code: string, wave: string, clean: boolean) {
  const path = wavePath(code, wave);
  const force = clean
    ? null
    : html`<form method="post" action="${path}approve">
<input type="hidden" name="_csrf" value="${ctx.csrfToken}">
<p><input type="checkbox" id="force" name="force" value="true" required> <label for="force">The differences are understood: approve the wave as it is (final)</label>
<button type="submit" class="danger">Approve anyway (force)</button></p>
</form>`;
  return html`<section aria-labelledby="actions"><h2 id="actions">Actions</h2>
<p>Approval is final and releases the wave's held welcome e-mails. A rollback deletes the wave's accounts and cancels its processes.</p>
<div class="actions">${postForm(ctx, `${path}approve`, 'Approve', { confirm: `Approve wave ${wave}? Approval is final.` })}
<a href="${path}rollback">Roll back…</a></div>
${force}</section>`;
}

function rollbackPreview(ctx: PageContext, code: string, wave: string, preview: WaveRollback) {
  const path = wavePath(code, wave);
  const rows = Object.entries(preview.rows);
  return html`<p><a href="${path}">← Wave ${wave}</a></p>
<p>Rolling back deletes every account of the wave and every row of them, and moves its processes to CANCELLED (their event history stays). It cannot be undone; the same book can be pushed again afterwards.</p>
<table><caption>What the rollback removes</caption>
<thead><tr><th scope="col">What</th><th scope="col" class="num">Rows</th></tr></thead>
<tbody><tr data-table="processes"><th scope="row">processes moved to CANCELLED</th><td class="num">${preview.processes}</td></tr>
${rows.map(([table, n]) => html`<tr data-table="${table}"><th scope="row"><code>${table}</code></th><td class="num">${n}</td></tr>`)}</tbody></table>
<form method="post" action="${path}rollback" class="stack">
<input type="hidden" name="_csrf" value="${ctx.csrfToken}">
<label for="wave-name">Type the wave's name (${wave}) to roll it back</label>
<input id="wave-name" name="wave_name" required maxlength="64" autocomplete="off" spellcheck="false">
<button type="submit" class="danger">Roll back wave ${wave}</button>
</form>`;
}

/** Who the dashboard records as acting: the name given at sign-in, else the operator key's "operator". */
const actor = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).operatorName ?? OPERATOR;

export const wavePages: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const hide = true;
  const ctxOf = (request: Parameters<typeof sessionOf>[0], q: Parameters<typeof noticeOf>[0]) => ({
    csrfToken: sessionOf(request).csrfToken,
    ...noticeOf(q),
  });

  app.get(
    '/suppliers/:code/waves/:wave/',
    { schema: { hide, params: WaveParams, querystring: WavePageQuery }, preValidation: checkWaveName },
    async (request, reply) => {
      const { code, wave } = request.params;
      await knownWave(db, code, wave);
      const filter = filterOf(request.query);
      const [counts, reconciliation, record, held, profiles] = await Promise.all([
        waveProcessCounts(db, code, wave),
        reconcileWave(db, code, wave),
        waveRecord(db, code, wave),
        heldWelcomeEmails(db, code, wave),
        waveMappingProfiles(db, code, wave),
      ]);
      const differences: AccountDifference[] = [];
      for await (const d of waveDifferences(db, code, wave, { ...filter, pageSize: DIFFERENCES_SHOWN })) {
        differences.push(d);
        if (differences.length === DIFFERENCES_SHOWN) break;
      }
      const ctx = ctxOf(request, request.query);
      const main = html`<p><a href="${supplierPath(code)}">← Supplier ${code}</a></p>
<div class="status">Status: <strong data-field="wave-status">${waveStatus(record, counts, reconciliation)}</strong></div>
${progressSection(code, counts)}
${profilesSection(profiles)}
${reconciliationSection({ code, path: wavePath(code, wave), filter }, reconciliation, record, differences)}
${recordSection(record, held)}
${record?.approved_at ? null : actionsSection(ctx, code, wave, reconciliation.clean)}`;
      return sendPage(reply, page(ctx, { title: `Wave ${wave} of ${code}`, main }));
    },
  );

  app.post(
    '/suppliers/:code/waves/:wave/approve',
    { schema: { hide, params: WaveParams, body: ApproveBody }, preValidation: checkWaveName },
    async (request, reply) => {
      const { code, wave } = request.params;
      const back = wavePath(code, wave);
      await knownWave(db, code, wave);
      try {
        const approved = await approveWave(db, {
          supplier: code,
          wave,
          force: request.body.force === 'true',
          by: actor(request),
        });
        request.log.info(
          {
            event: 'wave_approved',
            importSupplier: code,
            wave,
            forced: approved.approval.forced,
            releasedEmails: approved.released_emails,
          },
          'wave approved',
        );
        return reply.redirect(withNotice(back, 'wave-approved', { changed: approved.released_emails }), 303);
      } catch (error) {
        return reply.redirect(refusalRedirect(error, back), 303);
      }
    },
  );

  // The preview is a dry run: it takes the rollback's locks and checks, and changes nothing.
  app.get(
    '/suppliers/:code/waves/:wave/rollback',
    { schema: { hide, params: WaveParams, querystring: PageQuery }, preValidation: checkWaveName },
    async (request, reply) => {
      const { code, wave } = request.params;
      await knownWave(db, code, wave);
      let preview: WaveRollback;
      try {
        preview = await rollBackWave(db, { supplier: code, wave, dryRun: true, by: actor(request) });
      } catch (error) {
        return reply.redirect(refusalRedirect(error, wavePath(code, wave)), 303);
      }
      const ctx = ctxOf(request, request.query);
      return sendPage(
        reply,
        page(ctx, {
          title: `Roll back wave ${wave} of ${code}`,
          main: rollbackPreview(ctx, code, wave, preview),
        }),
      );
    },
  );

  app.post(
    '/suppliers/:code/waves/:wave/rollback',
    { schema: { hide, params: WaveParams, body: RollbackBody }, preValidation: checkWaveName },
    async (request, reply) => {
      const { code, wave } = request.params;
      const back = wavePath(code, wave);
      await knownWave(db, code, wave);
      if (request.body.wave_name.trim() !== wave) {
        return reply.redirect(withNotice(`${back}rollback`, 'wave-name-mismatch'), 303);
      }
      try {
        const done = await rollBackWave(db, { supplier: code, wave, dryRun: false, by: actor(request) });
        // One line for the wave: each process's ROLLED_BACK event is in its history.
        request.log.info(
          {
            event: 'wave_rolled_back',
            importSupplier: code,
            wave,
            processes: done.processes,
            rows: done.rows,
          },
          'wave rolled back',
        );
        return reply.redirect(withNotice(back, 'wave-rolled-back', { changed: done.processes }), 303);
      } catch (error) {
        return reply.redirect(refusalRedirect(error, back), 303);
      }
    },
  );
};

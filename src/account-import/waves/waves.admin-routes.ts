/**
 * The operator's acts on a wave (decision 0070): approve it (final; releases its held welcome
 * e-mails) or roll it back before that (its accounts deleted, its processes CANCELLED). Thin:
 * each route parses, calls one service function, and shapes the answer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AdminObject, BadRequest, ErrorRef, SupplierCodeParam } from '../../http/schemas.ts';
import type { Db } from '../../infra/db/db.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';
import { checkWaveName, MeasureTotals, ReconciliationCounts, WaveName } from './wave.schemas.ts';
import { approveWave, OPERATOR } from './wave-approval.ts';
import { ROLLBACK_TABLES } from './wave-rollback.queries.ts';
import { rollBackWave } from './wave-rollback.ts';

const Params = Type.Object({ supplier: SupplierCodeParam, wave: WaveName });
const Counts = ReconciliationCounts;
const Totals = MeasureTotals;

/** A refusal of a wave act: `{detail, code}`, and what the code says more. */
const WaveConflict = Type.Object(
  {
    detail: Type.String({ description: 'Human-readable; do not parse.' }),
    code: Type.String({
      description: 'reconciliation_differences, wave_approved or welcome_emails_sent.',
    }),
    accounts: Type.Optional(Counts),
    totals: Type.Optional(Totals),
    emails_sent: Type.Optional(
      Type.Integer({ description: 'welcome_emails_sent: how many of the wave’s accounts were sent one.' }),
    ),
    external_account_numbers: Type.Optional(
      Type.Array(Type.String(), {
        description: 'welcome_emails_sent: those accounts (the first 1,000 in order).',
      }),
    ),
  },
  {
    description:
      'reconciliation_differences carries the reconciliation (accounts, totals); welcome_emails_sent names the accounts whose customers were written to.',
  },
);

const ApproveBody = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({
        description: 'Approve although the reconciliation finds differences (recorded as forced).',
      }),
    ),
    approved_by: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: `Who approves, as the record should name them (default "${OPERATOR}": the operator key names nobody).`,
      }),
    ),
  },
  { additionalProperties: false },
);
const RollbackBody = Type.Object(
  {
    dry_run: Type.Optional(Type.Boolean({ description: 'Answer the counts only; change nothing.' })),
  },
  { additionalProperties: false },
);

const ApprovalView = AdminObject(
  {
    import_supplier: Type.String(),
    wave: Type.String(),
    approved_at: Type.String({ format: 'date-time' }),
    approved_by: Type.String({ description: 'Who approved: the approved_by given, else "operator".' }),
    approval: Type.Object(
      { accounts: Counts, totals: Totals, forced: Type.Boolean() },
      { description: 'The reconciliation at approval, and whether it was forced past differences.' },
    ),
    released_emails: Type.Integer({ description: 'Held welcome e-mails this approval released.' }),
  },
  "The wave's approval record.",
);

const RollbackView = AdminObject(
  {
    import_supplier: Type.String(),
    wave: Type.String(),
    dry_run: Type.Boolean(),
    processes: Type.Integer({ description: 'Processes moved (or that would move) to CANCELLED.' }),
    rows: Type.Object(Object.fromEntries(ROLLBACK_TABLES.map((t) => [t, Type.Integer()])), {
      description: 'Rows deleted (or that would be) per table.',
    }),
    rolled_back_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  'What the rollback removed, or would remove (dry run).',
);

export const waveAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const tags = ['admin'];
  app.post(
    '/waves/:supplier/:wave/approve/',
    {
      preValidation: checkWaveName,
      schema: {
        tags,
        summary: 'Approve a wave: final; releases its held welcome e-mails',
        description:
          '409 reconciliation_differences (with the accounts and totals) while its reconciliation finds accounts missing, unexpected or differing, or no expectations were uploaded, unless {"force": true}; 409 wave_approved when it is approved already.',
        params: Params,
        body: Type.Optional(ApproveBody),
        response: { 200: ApprovalView, 400: BadRequest, 404: ErrorRef, 409: WaveConflict },
      },
    },
    async (request) => {
      const { supplier, wave } = request.params;
      const force = request.body?.force ?? false;
      const by = request.body?.approved_by?.trim() || OPERATOR;
      const approved = await approveWave(db, { supplier, wave, force, by });
      request.log.info(
        {
          event: 'wave_approved',
          importSupplier: supplier,
          wave,
          approvedBy: approved.approved_by,
          forced: approved.approval.forced,
          releasedEmails: approved.released_emails,
        },
        'wave approved',
      );
      return {
        import_supplier: supplier,
        wave,
        ...approved,
        approved_at: wireDatetime(approved.approved_at),
      };
    },
  );

  app.post(
    '/waves/:supplier/:wave/rollback/',
    {
      preValidation: checkWaveName,
      schema: {
        tags,
        summary: 'Roll back a wave before its approval: delete its accounts, cancel its processes',
        description:
          'In one transaction: every account the wave created and every row of it deleted, its processes CANCELLED (event EVENT_ACCOUNT_IMPORT_PROCESS_ROLLED_BACK; their identifier reservations released). 409 wave_approved after approval; 409 welcome_emails_sent (with the accounts) when a welcome e-mail of the wave was sent. {"dry_run": true} answers the counts and changes nothing.',
        params: Params,
        body: Type.Optional(RollbackBody),
        response: { 200: RollbackView, 400: BadRequest, 404: ErrorRef, 409: WaveConflict },
      },
    },
    async (request) => {
      const { supplier, wave } = request.params;
      const dryRun = request.body?.dry_run ?? false;
      const done = await rollBackWave(db, { supplier, wave, dryRun, by: OPERATOR });
      if (!dryRun) {
        // One line for the wave: each process's ROLLED_BACK event is in its history.
        request.log.info(
          {
            event: 'wave_rolled_back',
            importSupplier: supplier,
            wave,
            processes: done.processes,
            rows: done.rows,
          },
          'wave rolled back',
        );
      }
      return {
        import_supplier: supplier,
        wave,
        ...done,
        rolled_back_at: wireDatetime(done.rolled_back_at),
      };
    },
  );
};

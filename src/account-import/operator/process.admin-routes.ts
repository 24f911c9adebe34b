import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { apiError, notFound } from '../../errors/error-catalogue.ts';
import { AdminObject, BadRequest, ErrorRef } from '../../http/schemas.ts';
import type { Db } from '../../infra/db/db.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';
import { logProcessEvents } from '../process-event-log.ts';
import {
  cancelImportProcess,
  type OperatorActionOutcome,
  retryImportProcess,
} from './process-actions.queries.ts';
import { findImportProcessDetail } from './process-detail.queries.ts';
import { MappingProfileRef } from './process-lists.admin-routes.ts';

const Params = Type.Object({ supplier: Type.String(), external: Type.String() });

const ProcessDetail = AdminObject(
  {
    import_supplier: Type.String(),
    external_account_number: Type.String(),
    status: Type.String(),
    payload: Type.Object({}, { additionalProperties: true, description: 'The account data as stored.' }),
    service_account_number: Type.Union([Type.String(), Type.Null()]),
    mapping_profile: MappingProfileRef,
    events: Type.Array(
      AdminObject({ event: Type.String(), occurred_at: Type.String({ format: 'date-time' }) }),
    ),
  },
  'An import process with its stored payload and every event.',
);

const DATE_KEYS = [
  'schedule_window_start',
  'schedule_window_end',
  'created_at',
  'modified_at',
  'account_created_at',
];

async function detailView(db: Db, supplier: string, external: string) {
  const d = await findImportProcessDetail(db, supplier, external);
  if (!d) throw notFound('No import process exists for that supplier and external account number.');
  const { id: _id, account_number, latest_event, events, ...rest } = d;
  const out: Record<string, unknown> = { ...rest, service_account_number: account_number };
  for (const k of DATE_KEYS) out[k] = wireDatetime(out[k] as Date | null);
  const ev = latest_event as { occurred_at: string };
  out.latest_event = { ...ev, occurred_at: wireDatetime(ev.occurred_at) };
  out.events = events.map((e) => ({ ...e, occurred_at: wireDatetime(e.occurred_at) }));
  return out;
}

/** A single cancel or retry that did not happen, as the operator's 404 or 400 (the dashboard answers the same). */
export function refuseUnlessDone(
  result: { outcome: OperatorActionOutcome; status?: ImportProcessStatus },
  action: 'cancelled' | 'retried',
) {
  if (result.outcome === 'not_found')
    throw notFound('No import process exists for that supplier and external account number.');
  if (result.outcome === 'wrong_state') {
    throw apiError('invalid_state_transition', `A process in state ${result.status} cannot be ${action}.`);
  }
}

export const importProcessAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const tags = ['admin'];
  app.get(
    '/import-processes/:supplier/:external/',
    {
      schema: {
        tags,
        summary: 'A process: stored payload and full event history',
        params: Params,
        response: { 200: ProcessDetail, 404: ErrorRef },
      },
    },
    async (request) => {
      const { supplier, external } = request.params;
      return detailView(db, supplier, external);
    },
  );

  const actions = [
    {
      path: 'cancel',
      summary: 'Cancel a STAGED, PENDING, ERRORED or DRY_RUN_* process',
      act: cancelImportProcess,
      done: 'cancelled',
    },
    {
      path: 'retry',
      summary: 'Send an ERRORED process back to PENDING',
      act: retryImportProcess,
      done: 'retried',
    },
  ] as const;
  for (const { path, summary, act, done } of actions) {
    app.post(
      `/import-processes/:supplier/:external/${path}/`,
      {
        // A retry sends the process back to PENDING: the workers are told (decision 0100).
        config: { makesWorkDue: true },
        schema: {
          tags,
          summary,
          params: Params,
          response: { 200: ProcessDetail, 400: BadRequest, 404: ErrorRef },
        },
      },
      async (request) => {
        const { supplier, external } = request.params;
        refuseUnlessDone(await act(db, supplier, external), done);
        logProcessEvents(request.log, path, [{ supplier, externalAccountNumber: external }]);
        return detailView(db, supplier, external);
      },
    );
  }
};

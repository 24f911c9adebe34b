import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FollowUpDeps } from '../../follow-ups/follow-up.ts';
import { StatementsBodySchema } from '../../follow-ups/statements/statements.schema.ts';
import { createStatements } from '../../follow-ups/statements/statements.service.ts';
import { authErrorResponses, BadRequest, bodyErrorResponses, ErrorRef } from '../../http/schemas.ts';

const EXAMPLE = {
  import_supplier: 'TENTACLE_ENERGY',
  external_account_number: 'EXTERNAL-1234',
  statements: [
    {
      bill_period_from_date: '2019-06-01',
      bill_period_to_date: '2019-06-30',
      statement_id: '1',
      issued_date: '2019-07-02',
      number: '1',
      gross_amount: 100,
      statement_path: 'path/to/statement-1.pdf',
    },
  ],
};

export const statementsRoutes: FastifyPluginAsyncTypebox<FollowUpDeps> = async (app, deps) => {
  app.post(
    '/v1/data-import/historical-statements/create/',
    {
      schema: {
        tags: ['post account import'],
        summary: 'Import historical statements on an imported account',
        description:
          'Historical statements, of any past period; a statement_path must name a PDF in the document ' +
          'store. A statement_id already imported is not duplicated, and the request succeeds again. ' +
          'Answers 201 with the validated data.',
        body: { ...StatementsBodySchema, examples: [EXAMPLE] },
        response: {
          201: StatementsBodySchema,
          400: BadRequest,
          404: ErrorRef,
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const result = await createStatements(deps, request.body);
      return reply.code(201).send(result);
    },
  );
};

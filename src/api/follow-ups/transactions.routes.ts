import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import {
  type FollowUpDeps,
  followUpBodyChecker,
  followUpValidationFailed,
} from '../../follow-ups/follow-up.ts';
import { TransactionsBodySchema } from '../../follow-ups/transactions/transactions.schema.ts';
import { importTransactions } from '../../follow-ups/transactions/transactions.service.ts';
import { checkedInService, documentedOnly } from '../../http/json-body.ts';
import { AnyOf, authErrorResponses, bodyErrorResponses, ErrorRef, StringEnum } from '../../http/schemas.ts';

const EXAMPLE = {
  import_supplier: 'ACME',
  external_account_number: 'EXT-0001',
  transactions: [
    {
      transaction_id: 'PAY-1',
      transaction_date: '2024-11-15',
      amount: 45,
      type: 'PAYMENT',
      reason: 'ACCOUNT_CHARGE_PAYMENT',
      payment_type: 'DD_REGULAR_COLLECTION',
    },
    {
      transaction_id: 'SC-1',
      transaction_date: '2024-11-30',
      amount: '53.24',
      type: 'SUPPLY_CHARGE',
      product_code: 'E-1R-FERRY-FIX-24M',
      line_items: [
        {
          rate_band: 'CONSUMPTION_STANDARD',
          start_date: '2024-11-01',
          end_date: '2024-11-30',
          number_of_units: 160,
          net_amount: 44,
          price_per_unit: 0.275,
        },
      ],
      tax_items: [{ amount: 9.24, tax_type: 'VAT', value_taxed: 44, rate: 0.21, unit_type: 'PROPORTION' }],
    },
  ],
};

const Flag = (description: string) => Type.Optional(Type.Boolean({ description }));

const Query = Type.Object(
  {
    check_previously_added: Flag(
      'Default true: a transaction_id already on the account is skipped (TRANSACTION_ALREADY_EXISTS).',
    ),
    force_add_to_current_statement: Flag(
      'Default true: a transaction dated before the open statement period is moved to its start, described, and listed in a pinned note.',
    ),
  },
  { additionalProperties: false },
);

const checkQuery = followUpBodyChecker<Static<typeof Query>>(Query);

const Result = Type.Object({
  status: StringEnum(['TRANSACTION_ADDED_TO_ACCOUNT', 'TRANSACTION_ALREADY_EXISTS'] as const),
  transaction_data: Type.Ref('TransactionData', {
    description: 'The transaction as added, or as sent when it exists already.',
  }),
});

export const transactionsRoutes: FastifyPluginAsyncTypebox<FollowUpDeps> = async (app, deps) => {
  app.post(
    '/v1/data-import/transactions/create/',
    {
      // Query and body are checked by the account payload's validator (its codes, exact decimals).
      ...checkedInService(),
      schema: {
        tags: ['post account import'],
        summary: 'Add ledger transactions to an imported account (all or nothing)',
        querystring: documentedOnly(Query),
        body: documentedOnly({ ...TransactionsBodySchema, examples: [EXAMPLE] }),
        response: {
          201: Type.Object({ results: Type.Array(Result) }),
          400: AnyOf(
            ['TransactionImportError', 'ValidationError', 'Error'],
            'The first transaction that cannot be added and why, or a validation error.',
          ),
          404: ErrorRef,
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { value: q, errors } = checkQuery(request.query ?? {});
      if (errors.length > 0) throw followUpValidationFailed(errors);
      const result = await importTransactions(deps, request.body, {
        checkPreviouslyAdded: q.check_previously_added ?? true,
        forceAddToCurrentStatement: q.force_add_to_current_statement ?? true,
      });
      return reply.code(201).send(result);
    },
  );
};

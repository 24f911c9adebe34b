import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FollowUpDeps } from '../../follow-ups/follow-up.ts';
import {
  PAYMENT_INSTRUCTION_EXAMPLE,
  PaymentInstructionBody,
} from '../../follow-ups/payment-instructions/payment-instructions.schema.ts';
import { createPaymentInstruction } from '../../follow-ups/payment-instructions/payment-instructions.service.ts';
import { checkedInService, documentedOnly } from '../../http/json-body.ts';
import { AnyOf, authErrorResponses } from '../../http/schemas.ts';

const Created = Type.Object({
  service_account_number: Type.String({ description: 'The account number on this service.' }),
  reference: Type.String({ description: "The vendor's reference, as stored." }),
});

/** The keys of the real deployment's CreatePaymentInstructionError, added to every error body here. */
const IDENTIFYING_FIELDS = ['import_supplier', 'external_account_number', 'reference'] as const;

/** Answers every data-import route gives alike (authentication, scoping, rate limit): left as they are. */
const SHARED_ERROR_STATUSES = new Set(Object.keys(authErrorResponses).map(Number));

/**
 * Every other 4xx and 5xx body of this endpoint carries, beside our `{detail, code}`, the real
 * deployment's `error_detail` (= detail) and the request's identifying fields ("" where the
 * request had none), so a client written from its document reads what it expects.
 */
async function withRequestIdentifiers(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (reply.statusCode < 400 || SHARED_ERROR_STATUSES.has(reply.statusCode)) return payload;
  if (typeof payload !== 'object' || payload === null) return payload;
  const error = payload as Record<string, unknown>;
  if (typeof error.detail !== 'string') return payload;
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
    string,
    unknown
  >;
  const echoed = Object.fromEntries(
    IDENTIFYING_FIELDS.map((k) => [k, typeof body[k] === 'string' ? body[k] : '']),
  );
  return { ...error, error_detail: error.detail, ...echoed };
}

const ErrorWithIdentifiers = Type.Ref('PaymentInstructionError');

export const paymentInstructionRoutes: FastifyPluginAsyncTypebox<FollowUpDeps> = async (app, deps) => {
  app.post(
    '/v1/data-import/payment-instruction/create/',
    {
      // Checked by the account payload's validator (its codes and formats, e.g. ledger-code).
      ...checkedInService(),
      preSerialization: withRequestIdentifiers,
      schema: {
        tags: ['post account import'],
        summary: 'Attach a payment instruction to an imported account',
        description:
          'Fetches the instruction from its vendor and stores its details. The same vendor reference again ' +
          'answers the same 201. 400: validation errors, a permanent vendor failure (specific code; do not ' +
          'retry unchanged) or `account_has_active_instruction`. 500 `vendor_unavailable`: the vendor timed ' +
          'out, throttled or failed; retry unchanged. Every error body also carries error_detail, ' +
          'import_supplier, external_account_number and reference.',
        body: documentedOnly({ ...PaymentInstructionBody, examples: [PAYMENT_INSTRUCTION_EXAMPLE] }),
        response: {
          201: Created,
          400: AnyOf(
            ['PaymentInstructionValidationError', 'PaymentInstructionError'],
            'A validation failure, a permanent vendor refusal or account_has_active_instruction.',
          ),
          404: ErrorWithIdentifiers,
          413: ErrorWithIdentifiers,
          415: ErrorWithIdentifiers,
          500: ErrorWithIdentifiers,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const created = await createPaymentInstruction(deps, request.body);
      return reply.code(201).send(created);
    },
  );
};

import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { FollowUpDeps } from '../http/follow-up.ts';
import { authErrorResponses, ErrorRef, StringEnum } from '../http/schemas.ts';
import { PAYMENT_INSTRUCTION_TYPES, PAYMENT_VENDOR_NAMES } from '../infra/vendors/payment-vendor.ts';
import { createPaymentInstruction, type PaymentInstructionRequest } from './payment-instruction.service.ts';

export const PaymentInstructionBody = Type.Object(
  {
    import_supplier: Type.String({ minLength: 1, maxLength: 64, description: 'Import supplier code.' }),
    external_account_number: Type.String({ minLength: 1, maxLength: 128 }),
    vendor: StringEnum(PAYMENT_VENDOR_NAMES, { description: 'The payment vendor holding the instruction.' }),
    reference: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "The vendor's id: a GoCardless mandate (MD…) or a Stripe payment method (pm_…).",
    }),
    type: StringEnum(PAYMENT_INSTRUCTION_TYPES, { description: 'Kind of instruction.' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        import_supplier: 'TENTACLE_ENERGY',
        external_account_number: 'EXTERNAL-1234',
        vendor: 'GOCARDLESS',
        reference: 'MD000SIMACTIVE',
        type: 'DIRECT_DEBIT',
      },
    ],
  },
);

const Created = Type.Object({
  service_account_number: Type.String({ description: 'The account number on this service.' }),
  reference: Type.String({ description: "The vendor's reference, as stored." }),
});

export async function paymentInstructionRoutes(app: FastifyInstance, deps: FollowUpDeps) {
  app.post(
    '/v1/data-import/payment-instruction/create/',
    {
      schema: {
        tags: ['post account import'],
        summary: 'Attach a payment instruction to an imported account',
        description:
          'Fetches the instruction from its vendor and stores its details. The same vendor reference again ' +
          'answers the same 201. 400: validation errors, a permanent vendor failure (specific code; do not ' +
          'retry unchanged) or `account_has_active_instruction`. 500 `vendor_unavailable`: the vendor timed ' +
          'out, throttled or failed; retry unchanged.',
        body: PaymentInstructionBody,
        response: { 201: Created, 400: ErrorRef, 404: ErrorRef, 500: ErrorRef, ...authErrorResponses },
      },
    },
    async (request, reply) => {
      const created = await createPaymentInstruction(deps, request.body as PaymentInstructionRequest);
      return reply.code(201).send(created);
    },
  );
}

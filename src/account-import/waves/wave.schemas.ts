/**
 * The wire shapes of a wave that both its APIs answer (the supplier's reconciliation, the
 * operator's approval and refusals): its name, the accounts compared and the totals per measure.
 * Every route with a wave in its path checks the name with `checkWaveName` before validation, so
 * a bad name is answered alike everywhere: 400 with the item `invalid_wave` at `wave`.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { WAVE_NAME, WAVE_NAME_DETAIL } from '../../accounts/account-checks.ts';
import { validationFailed } from '../../errors/error-catalogue.ts';
import { item } from '../../errors/error-items.ts';
import { isJsonObject } from '../../http/json-body.ts';
import { ACCOUNT_MEASURES, MEASURES, measureDefinitionLines } from './measures.ts';

export const WaveName = Type.String({
  pattern: WAVE_NAME.source,
  description: `The wave: ${WAVE_NAME_DETAIL.replace(/^A wave is /, '')} (invalid_wave otherwise).`,
});

/** The 400 of a path that names no possible wave. */
export const invalidWave = () =>
  validationFailed('validation_error', [item('wave', 'invalid_wave', WAVE_NAME_DETAIL)]);

/**
 * A route's preValidation hook: 400 invalid_wave (with a readable detail) for a path whose
 * `wave` is not a wave's name, before the schema's pattern would answer the generic `invalid`.
 */
export function checkWaveName(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  // Before validation the params are what the router matched: read them without trusting a type.
  const wave = isJsonObject(request.params) ? request.params.wave : undefined;
  done(typeof wave === 'string' && WAVE_NAME.test(wave) ? undefined : invalidWave());
}

export const ReconciliationCounts = Type.Object({
  expected: Type.Integer(),
  imported: Type.Integer(),
  matched: Type.Integer(),
  differing: Type.Integer(),
  missing: Type.Integer(),
  unexpected: Type.Integer(),
});

/** How many differing accounts differ in each measure. */
export const DifferingMeasures = Type.Object(
  Object.fromEntries(ACCOUNT_MEASURES.map((m) => [m, Type.Integer()])),
  {
    description:
      'How many differing accounts differ in each measure (an account may differ in several): what ?kind=differing&measure=<measure> of the differences answers.',
  },
);

const Amount = Type.Union([Type.Integer(), Type.String({ description: 'Money: a decimal string.' })]);

export const MeasureTotals = Type.Array(
  Type.Object({
    measure: Type.String({ enum: [...MEASURES] }),
    expected: Type.Union([Amount, Type.Null()], { description: 'null: no expectation gives this measure.' }),
    stored: Amount,
    difference: Type.Union([Amount, Type.Null()]),
  }),
  {
    description: `One total per measure, summed over the wave's accounts: stored minus expected is the difference. The measures, per account:\n\n${measureDefinitionLines('- ')}`,
  },
);

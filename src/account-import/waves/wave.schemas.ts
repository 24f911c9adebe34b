/**
 * The wire shapes of a wave that both its APIs answer (the supplier's reconciliation, the
 * operator's approval and refusals): its name, the accounts compared and the totals per measure.
 */
import { Type } from '@sinclair/typebox';
import { MEASURES } from './reconciliation.queries.ts';

export const WaveName = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
  description: 'The wave: 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit.',
});

export const ReconciliationCounts = Type.Object({
  expected: Type.Integer(),
  imported: Type.Integer(),
  matched: Type.Integer(),
  differing: Type.Integer(),
  missing: Type.Integer(),
  unexpected: Type.Integer(),
});

const Amount = Type.Union([Type.Integer(), Type.String({ description: 'Money: a decimal string.' })]);

export const MeasureTotals = Type.Array(
  Type.Object({
    measure: Type.String({ enum: [...MEASURES] }),
    expected: Type.Union([Amount, Type.Null()], { description: 'null: no expectation gives this measure.' }),
    stored: Amount,
    difference: Type.Union([Amount, Type.Null()]),
  }),
);

/**
 * The event feed's types (docs/decisions/0071-event-feed.md): the import-process events of the
 * state table, the follow-ups', and a supplier's own.
 */
import { IMPORT_PROCESS_EVENTS } from './import-process-states.ts';

/** Events written where the follow-ups are imported (src/follow-ups/). */
export const FOLLOW_UP_EVENTS = {
  NOTE_ADDED: 'EVENT_NOTE_ADDED',
  TRANSACTIONS_ADDED: 'EVENT_TRANSACTIONS_ADDED',
  STATEMENT_ADDED: 'EVENT_STATEMENT_ADDED',
  PAYMENT_INSTRUCTION_ADDED: 'EVENT_PAYMENT_INSTRUCTION_ADDED',
} as const;

/** Events of a supplier as a whole (import_supplier_events). */
export const SUPPLIER_EVENTS = {
  PAUSED: 'EVENT_SUPPLIER_PAUSED',
  STATUS_CHANGED: 'EVENT_SUPPLIER_STATUS_CHANGED',
  WAVE_APPROVED: 'EVENT_WAVE_APPROVED',
  WAVE_ROLLED_BACK: 'EVENT_WAVE_ROLLED_BACK',
} as const;

/** Every type the feed carries. */
export const EVENT_TYPES: readonly string[] = [
  ...new Set([
    ...Object.values(IMPORT_PROCESS_EVENTS),
    ...Object.values(FOLLOW_UP_EVENTS),
    ...Object.values(SUPPLIER_EVENTS),
  ]),
];

export type FollowUpEvent = (typeof FOLLOW_UP_EVENTS)[keyof typeof FOLLOW_UP_EVENTS];
export type SupplierEvent = (typeof SUPPLIER_EVENTS)[keyof typeof SUPPLIER_EVENTS];

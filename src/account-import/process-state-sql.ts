import type { ImportProcessEvent, ImportProcessStatus } from '../vocabulary/import-process-states.ts';

/**
 * A state or event name of the state table (vocabulary/import-process-states.ts) as an SQL
 * literal, for the queries that filter or set it in SQL. These are fixed upper-case words,
 * never input; anything else is refused when the query module loads.
 */
export function sqlWord(word: ImportProcessStatus | ImportProcessEvent): string {
  if (!/^[A-Z_]+$/.test(word)) throw new Error(`not a state or event name: ${word}`);
  return `'${word}'`;
}

/** The states as an SQL list, for `status IN (...)`. */
export const sqlStates = (states: readonly ImportProcessStatus[]): string => states.map(sqlWord).join(', ');

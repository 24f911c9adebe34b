/**
 * The item codes of the endpoints' own checks, beyond the payload's structure and rules:
 * scheduling an account, the follow-up imports, and the operator's API. Part of the item-code
 * catalogue (../item-codes.ts).
 */
import type { ItemCodeEntry } from '../item-codes.ts';

/** Scheduling and staging accounts (src/accounts/account-checks.ts, src/account-import/). */
export const SCHEDULING_CODES = {
  import_supplier_not_found: {
    means: 'No import supplier has this code.',
    todo: 'Check the code; an operator creates suppliers (`ferry supplier create`).',
  },
  schedule_window_start_in_past: 'task_params.schedule_window_start is in the past.',
  schedule_window_end_too_far_in_future: 'task_params.schedule_window_end is more than 4 days from now.',
  schedule_window_start__after_end: 'The schedule window does not start before it ends.',
  import_process_does_not_exist: {
    means: 'No account data is staged under this external account number (V1 process).',
    todo: 'Stage the account first (create-or-update), then process it.',
  },
  operations_team_name_does_not_exist: 'No operations team has this name.',
} as const satisfies Record<string, ItemCodeEntry>;

/** The follow-up imports: notes, transactions, statements, payment instructions (src/follow-ups/). */
export const FOLLOW_UP_CODES = {
  missing_transaction_id: 'A transaction has no transaction_id.',
  invalid_amount: 'An amount is not a number or decimal string with at most two decimal places.',
  note_body_or_document_path_not_found: {
    means: 'A note has neither a body nor document paths.',
    where: 'Notes: the notes import, and notes in the account payload.',
  },
  note_unpin_at_requires_pinned: 'unpin_at is given on a note that is not pinned.',
  note_unpin_at_earlier_than_creation_date: {
    means: 'A note is unpinned before it was created.',
    where: 'Notes: the notes import, and notes in the account payload.',
  },
  path_does_not_exist_in_file_store: {
    means: 'No document exists at this path under the supplier’s document root.',
    todo: 'Upload the document to the document store first, or correct the path.',
  },
  invalid_statement_document: {
    means: 'The document at statement_path is not a PDF.',
    todo: 'Upload the statement as a PDF.',
  },
} as const satisfies Record<string, ItemCodeEntry>;

/** The operator's API (src/suppliers/, src/auth/, src/account-import/operator/). */
export const OPERATOR_CODES = {
  document_root_overlaps: {
    means: "The document root is inside another supplier's root, or holds it.",
    todo: 'Give the supplier a folder of its own in the document store.',
  },
} as const satisfies Record<string, ItemCodeEntry>;

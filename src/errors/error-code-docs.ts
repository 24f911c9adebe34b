/**
 * What each top-level `code` of the error catalogue (error-catalogue.ts) means, where it occurs
 * and what the client should do: the text of the error-code reference in /docs
 * (error-code-reference.ts). Keyed by ErrorCode, so a code added to the catalogue without its
 * entry here does not compile. The codes answered elsewhere than a top-level `code` (GraphQL,
 * a process's `latest_error`) follow.
 */
import type { ErrorCode } from './error-catalogue.ts';

export interface ErrorCodeDoc {
  means: string;
  where: string;
  todo: string;
}

const ANY = 'Any operation.';
const DATA_IMPORT = 'Any data-import operation (not /admin/).';
const SCHEDULE = 'V2 create and bulk, V1 create-or-update and process.';
const PAYMENT_INSTRUCTION = 'POST /v1/data-import/payment-instruction/create/.';
const RETRY_UNCHANGED = 'Retry the same request unchanged, later.';
const FIX_REQUEST = 'Correct the request and send it again.';
const VENDOR_FIX =
  'Do not retry unchanged: correct the reference or type, or ask the operator to fix the vendor set-up.';

export const ERROR_CODE_DOCS: Readonly<Record<ErrorCode, ErrorCodeDoc>> = {
  parse_error: { means: 'The body is not valid JSON.', where: ANY, todo: FIX_REQUEST },
  validation_error: {
    means: 'The request does not match its schema; each problem is an item of `errors`.',
    where: 'Any operation with a body, query or path parameters; the follow-up imports.',
    todo: 'Correct each item of `errors` (see the item codes below) and send the request again.',
  },
  bad_request: { means: 'The request is not valid HTTP.', where: ANY, todo: FIX_REQUEST },
  invalid_url: { means: 'The URL is malformed (bad percent-encoding).', where: ANY, todo: FIX_REQUEST },
  not_found: {
    means: 'No such route, or the thing the path or body names does not exist.',
    where: 'The status endpoints, the follow-up imports (the account is not imported), the admin API.',
    todo: 'Check the path, the supplier code and the external account number.',
  },
  request_timeout: {
    means: 'The request took longer than the service allows.',
    where: ANY,
    todo: 'Retry; send large batches in smaller parts.',
  },
  payload_too_large: {
    means: 'The body is larger than the limit (5 MiB; 32 MiB for bulk, 5 MiB a line).',
    where: 'Any operation with a body.',
    todo: 'Send less at once: split the batch.',
  },
  uri_too_long: {
    means: 'A path parameter is longer than 255 characters.',
    where: ANY,
    todo: FIX_REQUEST,
  },
  unsupported_media_type: {
    means: 'The body is not sent as application/json (or NDJSON where a route takes it).',
    where: 'Any operation with a body.',
    todo: 'Send Content-Type: application/json.',
  },
  request_header_fields_too_large: {
    means: 'The request line and headers are too large.',
    where: ANY,
    todo: FIX_REQUEST,
  },
  not_authenticated: {
    means: 'No credentials were sent.',
    where: `${DATA_IMPORT} (Authorization: Token …); the admin API (Bearer).`,
    todo: 'Send the Authorization header.',
  },
  authentication_failed: {
    means: 'The token or key is invalid, expired or revoked.',
    where: 'Any operation that needs credentials.',
    todo: 'Obtain a new token (obtainToken, or refreshToken) and retry.',
  },
  permission_denied: {
    means: 'The API key does not cover the import supplier the request names.',
    where: DATA_IMPORT,
    todo: 'Use a key issued for that supplier.',
  },
  throttled: {
    means: 'Too many requests from this key (or failed credentials from this address).',
    where: ANY,
    todo: 'Wait the seconds in the Retry-After header, then retry.',
  },
  server_error: {
    means: 'An unexpected error in the service; it is logged.',
    where: ANY,
    todo: RETRY_UNCHANGED,
  },
  vendor_unavailable: {
    means: 'The payment vendor timed out, throttled or failed.',
    where: PAYMENT_INSTRUCTION,
    todo: RETRY_UNCHANGED,
  },
  service_unavailable: {
    means: 'The database is unavailable or the service is shutting down.',
    where: ANY,
    todo: 'Retry after the Retry-After header.',
  },
  document_store_unavailable: {
    means: 'The document store could not be reached.',
    where: 'The notes and historical statements imports.',
    todo: 'Retry after the Retry-After header.',
  },
  account_failed_validation: {
    means: 'The account data is not valid; each problem is an item of `errors`.',
    where: 'POST /v2/data-import/accounts/validate/, V1 validate-account and create-or-update.',
    todo: 'Correct each item of `errors` and validate again.',
  },
  import_process_failed_validation: {
    means: 'The account was not scheduled: its data is not valid (items in `errors`).',
    where: SCHEDULE,
    todo: 'Call the validate endpoint for every error at once, correct them and send the account again.',
  },
  import_supplier_paused: {
    means: "The supplier's migration is paused: no account is scheduled or staged.",
    where: SCHEDULE,
    todo: 'Wait for the operator to resume the migration, then send again.',
  },
  import_supplier_complete: {
    means: "The supplier's migration is complete: no more accounts are taken.",
    where: SCHEDULE,
    todo: 'Ask the operator; the migration is over.',
  },
  account_import_process_in_progress: {
    means: 'The account is being created right now.',
    where: SCHEDULE,
    todo: 'Poll its status instead of sending it again.',
  },
  account_import_process_already_imported: {
    means: 'The account exists already (its number is in the body).',
    where: 'V2 create and bulk (inside non_field_errors); V1 validate-account, create-or-update and process.',
    todo: 'Nothing to do: use the account number answered.',
  },
  import_process_cancelled: {
    means: 'The staged process was cancelled.',
    where: 'V1 process.',
    todo: 'Stage the data again (create-or-update), then process.',
  },
  dry_run_succeeded: {
    means: 'A dry run: the account would be created; nothing was kept.',
    where: 'V1 process with dry_run, or a supplier set to dry runs only.',
    todo: 'Send it again without dry_run when you mean it.',
  },
  meter_point_on_another_account: {
    means: 'A meter point of this account is already on another account.',
    where: `V1 process; a process's latest_error (status endpoints).`,
    todo: 'Correct the meter point (MPAN/MPRN), or find the account that holds it; then send again.',
  },
  reference_already_exists: {
    means: 'A reference of this account is already on another account.',
    where: `V1 process; a process's latest_error (status endpoints).`,
    todo: 'Correct the reference, then send the account again.',
  },
  account_already_exists: {
    means: 'An account already exists for this external account number.',
    where: `V1 process; a process's latest_error (status endpoints).`,
    todo: 'Nothing to create: look the account up by its status.',
  },
  transaction_in_future: {
    means: 'A transaction is dated in the future (body status TRANSACTION_IMPORT_ERROR).',
    where: 'POST /v1/data-import/transactions/create/.',
    todo: 'Send it on or after its date; nothing of the request was added.',
  },
  transaction_outside_open_statement_period: {
    means: 'A transaction falls before the open statement period (TRANSACTION_IMPORT_ERROR).',
    where: 'POST /v1/data-import/transactions/create/ with force_add_to_current_statement=false.',
    todo: 'Send it with force_add_to_current_statement, or correct its date.',
  },
  account_has_active_instruction: {
    means: 'The account already has an active payment instruction of this type.',
    where: PAYMENT_INSTRUCTION,
    todo: 'Nothing to add: the account already has an active instruction of that type.',
  },
  invalid_payment_instruction_reference: {
    means: 'The reference cannot name an instruction at the vendor.',
    where: PAYMENT_INSTRUCTION,
    todo: VENDOR_FIX,
  },
  payment_instruction_not_found: {
    means: 'The vendor has no instruction with this reference.',
    where: PAYMENT_INSTRUCTION,
    todo: VENDOR_FIX,
  },
  payment_instruction_invalid: {
    means: 'The vendor answered something that is not a usable instruction.',
    where: PAYMENT_INSTRUCTION,
    todo: VENDOR_FIX,
  },
  payment_instruction_inactive: {
    means: 'The instruction exists but cannot collect payments (cancelled, expired, detached).',
    where: PAYMENT_INSTRUCTION,
    todo: VENDOR_FIX,
  },
  payment_instruction_type_mismatch: {
    means: 'The instruction is not of the type sent (DIRECT_DEBIT, CARD).',
    where: PAYMENT_INSTRUCTION,
    todo: VENDOR_FIX,
  },
  payment_instruction_reference_mismatch: {
    means:
      'The vendor answered for another instruction than the reference sent (the detail and `vendor_reference` name it): its data disagrees with the request.',
    where: PAYMENT_INSTRUCTION,
    todo: 'Check the reference with the vendor (merged or re-issued mandates, a reference of another account); retrying unchanged will not help.',
  },
  vendor_authentication_failed: {
    means: "The vendor refused this service's credentials.",
    where: PAYMENT_INSTRUCTION,
    todo: 'Ask the operator to fix the vendor credentials; retrying will not help until then.',
  },
  vendor_not_configured: {
    means: 'This service has no credentials for the vendor named.',
    where: PAYMENT_INSTRUCTION,
    todo: 'Ask the operator to configure the vendor.',
  },
  already_exists: {
    means: 'An import supplier with this code exists already.',
    where: 'POST /admin/v1/import-suppliers/.',
    todo: 'Use the existing supplier, or another code.',
  },
  document_root_overlaps: {
    means: "The supplier's document root is inside another supplier's root, or holds it.",
    where: 'The admin API: create or change an import supplier.',
    todo: 'Give the supplier a folder of its own.',
  },
  invalid_state_transition: {
    means: "The process's state does not allow this action (the state table).",
    where: 'The admin API: cancel or retry a process.',
    todo: 'Read the process state first; only the states named in the operation allow it.',
  },
  reconciliation_differences: {
    means:
      "The wave's reconciliation still finds accounts missing, unexpected or differing (the body carries its accounts and totals).",
    where: 'POST /admin/v1/waves/<supplier>/<wave>/approve/.',
    todo: 'Read the differences (GET …/reconciliation/differences/), fix them, and approve again; or approve with {"force": true}.',
  },
  wave_approved: {
    means: 'The wave is approved: approval is final, and an approved wave cannot be rolled back.',
    where: 'POST /admin/v1/waves/<supplier>/<wave>/approve/ and …/rollback/.',
    todo: 'Nothing to do: the wave stands. Correct its accounts with follow-up imports.',
  },
  welcome_emails_sent: {
    means:
      "Some of the wave's customers were already sent their welcome e-mail, so the wave cannot be rolled back.",
    where: 'POST /admin/v1/waves/<supplier>/<wave>/rollback/.',
    todo: 'Correct the accounts named in the body with follow-up imports instead.',
  },
  product_code_does_not_exist: {
    means:
      'A supply charge names a product the catalogue does not hold (only once a catalogue is uploaded); answered as TRANSACTION_IMPORT_ERROR, nothing was added.',
    where: 'POST /v1/data-import/transactions/create/.',
    todo: 'Correct the product_code (GET /v2/data-import/products/ lists the catalogue) and send the whole request again.',
  },
  catalogue_check_failed: {
    means:
      "A process's latest_error: at creation the account no longer passed the catalogue or code list checks (the reference data changed after it was accepted); the detail names the item code and attr.",
    where: "A process's latest_error (the worker, V1 process).",
    todo: 'Correct the account data against the current catalogue and create it again.',
  },
  product_in_use: {
    means:
      'The catalogue upload leaves out products or tariffs that accounts or processes (not CANCELLED) use; `accounts` and `processes` count them, `codes` names some. Nothing was stored.',
    where: 'PUT /admin/v1/products/.',
    todo: 'Keep those products and tariffs in the upload; end-date them (available_to) instead of removing them.',
  },
  code_in_use: {
    means:
      'The code list upload leaves out values that accounts or processes (not CANCELLED) use; `accounts` and `processes` count them, `codes` names some. Nothing was stored.',
    where: 'PUT /admin/v1/code-lists/<name>/.',
    todo: 'Keep those values in the list.',
  },
};

/** Codes answered somewhere other than an error body's top-level `code`. */
export interface OtherCodeDoc extends ErrorCodeDoc {
  code: string;
  status: string;
}

export const OTHER_CODE_DOCS: readonly OtherCodeDoc[] = [
  {
    code: 'invalid_input',
    status: '200 (GraphQL)',
    means: 'obtainToken was given neither or both of APIKey and refreshToken.',
    where: 'POST /v1/graphql/: errors[].extensions.code.',
    todo: 'Give exactly one.',
  },
  {
    code: 'invalid_api_key',
    status: '200 (GraphQL)',
    means: 'The API key is unknown or revoked.',
    where: 'POST /v1/graphql/: errors[].extensions.code.',
    todo: 'Ask the operator for a valid key.',
  },
  {
    code: 'invalid_refresh_token',
    status: '200 (GraphQL)',
    means: 'The refresh token is invalid or expired, or its key was revoked.',
    where: 'POST /v1/graphql/: errors[].extensions.code.',
    todo: 'Obtain a new token with the API key.',
  },
  {
    code: 'throttled',
    status: '200 (GraphQL)',
    means: 'Too many failed attempts from this address.',
    where: 'POST /v1/graphql/: errors[].extensions.code, with retry_after.',
    todo: 'Wait retry_after seconds.',
  },
  {
    code: 'external_account_number_repeated_in_file',
    status: '— (ferry push report)',
    means:
      'Two lines of the book give the same external account number; the later one would replace the earlier one.',
    where:
      "`ferry push accounts --validate-only`: a report line's errors, with other_line naming the other line.",
    todo: 'Keep one line per account in the book.',
  },
  {
    code: 'schedule_window_expired',
    status: '— (latest_error)',
    means: 'No worker started the process before its schedule window ended; it is ERRORED.',
    where: "A process's latest_error, on the status endpoints.",
    todo: 'Send the account again (with a wider schedule window).',
  },
];

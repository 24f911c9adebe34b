/**
 * The real deployments' V1 account endpoints (docs/product.md, V1 account endpoints): validate an account and
 * answer its validated data, stage account data without creating it, and turn staged data into
 * an account within the request (or, with `dry_run`, show that it would be).
 */

import { type Static, Type } from '@sinclair/typebox';
import {
  addConflicts,
  check,
  clockIn,
  supplierNotFound,
  validateAccountPayload,
} from '../../accounts/account-checks.ts';
import { asCreationError } from '../../accounts/account-creation-error.ts';
import { createAccount } from '../../accounts/create-account.ts';
import type { AccountPayload } from '../../accounts/payload/account-payload.schema.ts';
import { isRegistryCode } from '../../accounts/payload/rules/registry-code.ts';
import { reservationRequestOf, uniqueIdentifiersOf } from '../../accounts/payload/unique-identifiers.ts';
import { currentReference } from '../../catalogue/reference-data.ts';
import {
  apiError,
  type CreationFailureCode,
  type ValidationFailureCode,
  validationFailed,
} from '../../errors/error-catalogue.ts';
import { item } from '../../errors/error-items.ts';
import { localDate } from '../../infra/clock.ts';
import { type Db, type Queryable, withTransientRetry } from '../../infra/db/db.ts';
import type { SupplierCache } from '../../suppliers/suppliers.queries.ts';
import { allows } from '../../vocabulary/import-process-states.ts';
import { type EventLog, logProcessEvents } from '../process-event-log.ts';
import { recordTransition } from '../process-transitions.queries.ts';
import {
  findConflicts,
  replaceReservations,
  retryReservationRaces,
} from '../reservations/reservations.queries.ts';
import { refuseUnlessOngoing } from '../scheduling/scheduling.service.ts';
import { findImportProcessStatus } from '../status/status.queries.ts';
import {
  insertStagedProcess,
  lockImportProcess,
  replaceStagedPayload,
  supplierSendsWelcomeEmails,
} from './staging.queries.ts';

const DOMAIN = 'import_process';

/** The detail these endpoints have always given with their request's validation errors. */
const REQUEST_INVALID = 'The request body is not valid.';

/** The reference's AccountAlreadyImportedResponse, brand word replaced. */
const alreadyImported = (external: string, accountNumber: string) =>
  apiError('account_import_process_already_imported', 'This account has already been imported.', {
    body: {
      external_account_number: external,
      service_account_number: accountNumber,
      non_field_errors: ['This account has already been imported.'],
    },
  });

const inProgress = () =>
  apiError(
    'account_import_process_in_progress',
    'This account is being created right now; poll its status.',
    { body: { domain: DOMAIN } },
  );

/**
 * V1 bodies are the account itself: a `payload` key is a field the account does not have, refused
 * with the endpoint's validation code.
 */
function bareAccount(body: unknown, code: ValidationFailureCode) {
  if (body && typeof body === 'object' && Object.hasOwn(body, 'payload')) {
    throw validationFailed(
      code,
      [item('payload', 'unknown_field', 'Send the account itself, not {payload}.')],
      REQUEST_INVALID,
    );
  }
  return body;
}

/** POST /v1/data-import/validate-account/: the validated (normalised) account, or every error. */
export async function validateAccountV1(
  db: Db,
  suppliers: SupplierCache,
  body: unknown,
  timeZone: string,
): Promise<AccountPayload> {
  const checked = check(bareAccount(body, 'account_failed_validation'), clockIn(timeZone));
  if (checked.code !== null && !(await suppliers.get(checked.code))) supplierNotFound(checked);
  const [conflicts] = await findConflicts(db, [reservationRequestOf(body)], { inOrder: false });
  addConflicts(checked.errors, conflicts);
  if (checked.errors.length > 0 || !checked.parsed.ok) {
    throw validationFailed(
      'account_failed_validation',
      checked.errors,
      'The account data could not be validated.',
    );
  }
  const account = checked.parsed.payload;
  if (account.external_account_number) {
    const status = await findImportProcessStatus(
      db,
      account.import_supplier,
      account.external_account_number,
    );
    if (status?.account_number) throw alreadyImported(account.external_account_number, status.account_number);
  }
  return account;
}

export interface StagedAccount {
  created: boolean;
  external_account_number: string;
  import_supplier_code: string;
}

/** POST /v1/data-import/account-import-process/create-or-update/: stages the data (201 new, 200 updated). */
export async function stageAccount(
  db: Db,
  suppliers: SupplierCache,
  body: unknown,
  timeZone: string,
): Promise<StagedAccount> {
  const checked = check(bareAccount(body, 'import_process_failed_validation'), clockIn(timeZone));
  const supplier = checked.code === null ? null : await suppliers.get(checked.code);
  if (checked.code !== null && !supplier) supplierNotFound(checked);
  const { errors, parsed } = checked;
  if (parsed.ok && !parsed.payload.external_account_number) {
    errors.push(
      item('external_account_number', 'required', 'Staged data is kept by its external account number.'),
    );
  }
  if (errors.length > 0 || !parsed.ok || !supplier) {
    throw apiError('import_process_failed_validation', 'The account data failed validation.', {
      body: { domain: DOMAIN, errors },
    });
  }
  refuseUnlessOngoing(supplier);
  const external = String(parsed.payload.external_account_number);
  const now = new Date();
  // Staged data reserves its identifiers as a scheduled account does (decision 0064).
  const request = { supplier: supplier.code, external, identifiers: uniqueIdentifiersOf(parsed.payload) };
  const refuseConflicts = async (tx: Queryable) => {
    const [conflicts] = await findConflicts(tx, [request], { inOrder: false });
    if (conflicts.length > 0) {
      throw apiError('import_process_failed_validation', 'The account data failed validation.', {
        body: { domain: DOMAIN, errors: conflicts },
      });
    }
  };
  const created = await retryReservationRaces(() =>
    withTransientRetry(() =>
      db.transaction(async (tx) => {
        const inserted = await tx.query<{ id: string }>(insertStagedProcess, [
          supplier.code,
          external,
          parsed.payload,
          now,
        ]);
        if (inserted.rowCount !== 0) {
          await refuseConflicts(tx);
          await replaceReservations(tx, [
            { processId: inserted.rows[0].id, identifiers: request.identifiers },
          ]);
          return true;
        }
        const existing = (await lockImportProcess(tx, supplier.code, external))!;
        if (existing.account_number !== null) throw alreadyImported(external, existing.account_number);
        // Without an account, only IN_PROGRESS is a state the table does not stage from.
        if (!allows(existing.status, 'stage')) throw inProgress();
        await refuseConflicts(tx);
        await tx.query(replaceStagedPayload, [existing.id, parsed.payload]);
        await replaceReservations(tx, [{ processId: existing.id, identifiers: request.identifiers }]);
        await recordTransition(tx, existing.id, 'stage');
        return false;
      }),
    ),
  );
  return { created, external_account_number: external, import_supplier_code: supplier.code };
}

/** The process endpoint's body. */
export const ProcessRequestSchema = Type.Object(
  {
    import_supplier_code: Type.String({ minLength: 1, maxLength: 64 }),
    external_account_number: Type.String({ minLength: 1, maxLength: 128 }),
    dry_run: Type.Optional(
      Type.Boolean({
        description: 'Run the complete creation and keep nothing; a would-succeed run answers 400.',
      }),
    ),
    operations_team_name: Type.Optional(
      Type.String({ maxLength: 128, description: 'Format-checked only: Ferry holds no operations teams.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { import_supplier_code: 'TENTACLE_ENERGY', external_account_number: 'EXTERNAL-1234', dry_run: false },
    ],
  },
);

export type ProcessRequest = Static<typeof ProcessRequestSchema>;

export interface ProcessedAccount {
  external_account_number: string;
  service_account_number: string;
  /** Deprecated duplicate of service_account_number, as in the reference. */
  account_number: string;
}

type Outcome =
  | { kind: 'processed'; accountNumber: string }
  | { kind: 'dry_run' }
  | { kind: 'failed'; code: CreationFailureCode; detail: string };

/**
 * POST /v1/data-import/account-import-process/process/: re-validates the staged data and creates
 * the account in this request, under the process's row lock, exactly as a worker would.
 */
export async function processStagedAccount(
  deps: { db: Db; suppliers: SupplierCache; timeZone: string; log: EventLog },
  request: ProcessRequest,
): Promise<ProcessedAccount> {
  const { db, suppliers, timeZone } = deps;
  const { import_supplier_code: code, external_account_number: external } = request;
  // Once the operator uploaded the operations-team list, the name must be in it (decision 0091).
  const teams = currentReference().list('operations-team');
  const team = request.operations_team_name;
  if (team !== undefined && (!isRegistryCode(team) || (teams !== undefined && !teams.has(team)))) {
    throw validationFailed(
      'validation_error',
      [
        item(
          'operations_team_name',
          'operations_team_name_does_not_exist',
          'No operations team has this name.',
        ),
      ],
      REQUEST_INVALID,
    );
  }
  const supplier = await suppliers.get(code);
  if (!supplier) {
    throw validationFailed(
      'validation_error',
      [
        item(
          'import_supplier_code',
          'import_supplier_not_found',
          `No import supplier has the code "${code}".`,
        ),
      ],
      REQUEST_INVALID,
    );
  }
  refuseUnlessOngoing(supplier);
  const today = localDate(new Date(), timeZone);
  const outcome = await withTransientRetry(() =>
    db.transaction(async (tx): Promise<Outcome> => {
      const process = await lockImportProcess(tx, code, external);
      if (!process) {
        throw validationFailed(
          'validation_error',
          [
            item(
              'external_account_number',
              'import_process_does_not_exist',
              'No account data is staged under this number.',
            ),
          ],
          REQUEST_INVALID,
        );
      }
      if (process.account_number !== null) throw alreadyImported(external, process.account_number);
      if (process.status === 'IN_PROGRESS') throw inProgress();
      if (!allows(process.status, 'create_in_request')) {
        throw apiError('import_process_cancelled', 'This process was cancelled: stage the data again.', {
          body: { domain: DOMAIN },
        });
      }
      const revalidated = validateAccountPayload(process.payload, { today });
      if (!revalidated.ok) {
        throw validationFailed('import_process_failed_validation', revalidated.errors, REQUEST_INVALID);
      }
      const welcome =
        (await tx.query<{ send: boolean }>(supplierSendsWelcomeEmails, [code])).rows[0]?.send ?? false;
      await tx.exec('SAVEPOINT account_creation');
      try {
        const created = await createAccount(tx, {
          importProcessId: process.id,
          supplier: code,
          externalAccountNumber: external,
          payload: revalidated.value,
          sendWelcomeEmail: welcome && !request.dry_run,
          today,
        });
        if (request.dry_run) {
          await tx.exec('ROLLBACK TO SAVEPOINT account_creation');
          return { kind: 'dry_run' };
        }
        await recordTransition(tx, process.id, 'create_in_request', { accountId: created.accountId });
        return { kind: 'processed', accountNumber: created.accountNumber };
      } catch (err) {
        const failure = asCreationError(err);
        if (!failure) throw err;
        await tx.exec('ROLLBACK TO SAVEPOINT account_creation');
        const error = { code: failure.code, detail: failure.message, domain: DOMAIN };
        // A dry run changes nothing, even when it fails.
        if (!request.dry_run) {
          await recordTransition(tx, process.id, 'fail_in_request', { error });
        }
        return { kind: 'failed', code: failure.code, detail: failure.message };
      }
    }),
  );
  const logged = { supplier: code, externalAccountNumber: external };
  if (outcome.kind === 'processed') logProcessEvents(deps.log, 'create_in_request', [logged]);
  if (outcome.kind === 'failed' && !request.dry_run) {
    logProcessEvents(deps.log, 'fail_in_request', [{ ...logged, errorCode: outcome.code }]);
  }
  if (outcome.kind === 'dry_run') {
    // The reference answers a dry run that would succeed with a 400 (nothing was created).
    throw apiError('dry_run_succeeded', 'Dry run: the account would be created; nothing was kept.');
  }
  if (outcome.kind === 'failed') {
    throw apiError(outcome.code, outcome.detail, { body: { domain: DOMAIN } });
  }
  return {
    external_account_number: external,
    service_account_number: outcome.accountNumber,
    account_number: outcome.accountNumber,
  };
}

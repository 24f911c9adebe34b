import type { CreationFailureCode } from '../errors/error-catalogue.ts';
import { isUniqueViolation } from '../infra/db/db.ts';

/** A failure that belongs to the account, not to the machine: the process ends ERRORED with it. */
export class AccountCreationError extends Error {
  constructor(
    readonly code: CreationFailureCode,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * The account-level failure a creation error stands for, or null when it is not about the
 * account: a unique violation means another account holds an identifier (a race the
 * pre-checks of createAccounts could not see).
 */
export function asCreationError(err: unknown): AccountCreationError | null {
  if (err instanceof AccountCreationError) return err;
  if (isUniqueViolation(err, 'meter_points_identifier_key')) {
    return new AccountCreationError(
      'meter_point_on_another_account',
      'A meter point of this account is already on another account.',
    );
  }
  if (isUniqueViolation(err, 'account_references_namespace_value_key')) {
    return new AccountCreationError(
      'reference_already_exists',
      'A reference of this account is already on another account.',
    );
  }
  if (isUniqueViolation(err, 'accounts_import_supplier_external_account_number_key')) {
    return new AccountCreationError(
      'account_already_exists',
      'An account already exists for this external account number.',
    );
  }
  return null;
}

import { findImportedAccount, lockImportedAccount } from '../../accounts/imported-account.ts';
import { type ErrorItem, item } from '../../errors/error-items.ts';
import { recordAccountEvent } from '../../events/event-feed.ts';
import { forEachConcurrently } from '../../infra/concurrency.ts';
import { resolveDocumentKey } from '../../infra/storage/document-path.ts';
import { findSupplier } from '../../suppliers/suppliers.queries.ts';
import { FOLLOW_UP_EVENTS } from '../../vocabulary/event-types.ts';
import { DOCUMENT_CHECKS_IN_FLIGHT, type FollowUpDeps, followUpValidationFailed } from '../follow-up.ts';
import { insertStatementRows } from './statements.queries.ts';
import type { StatementInput, StatementsRequest } from './statements.schema.ts';

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/** The statement as answered: the documented fields only, in the documented order. */
function normalise(s: StatementInput): StatementInput {
  const out: StatementInput = {
    bill_period_from_date: s.bill_period_from_date,
    bill_period_to_date: s.bill_period_to_date,
    statement_id: s.statement_id,
  };
  if (s.issued_date !== undefined) out.issued_date = s.issued_date;
  if (s.number !== undefined) out.number = s.number;
  if (s.gross_amount !== undefined) out.gross_amount = s.gross_amount;
  if (s.statement_path !== undefined) out.statement_path = s.statement_path;
  return out;
}

/**
 * POST /v1/data-import/historical-statements/create/: every statement is checked (all errors at
 * once), then, with the account row locked, the statements not yet on the account are stored.
 * Answers the validated data. Statements are history: no open-statement-period rule applies
 * (docs/product.md, Open statement period).
 */
export async function createStatements(
  deps: FollowUpDeps,
  request: StatementsRequest,
): Promise<StatementsRequest> {
  const { db, objectStore } = deps;
  await findImportedAccount(db, request.import_supplier, request.external_account_number);
  const supplier = await findSupplier(db, request.import_supplier);
  const documentRoot = supplier?.document_root ?? '';
  const errors: ErrorItem[] = [];

  await forEachConcurrently([...request.statements.entries()], DOCUMENT_CHECKS_IN_FLIGHT, async ([i, s]) => {
    const at = `statements.${i}`;
    // Validated dates are YYYY-MM-DD strings, which order correctly as strings.
    if (s.bill_period_from_date > s.bill_period_to_date) {
      errors.push(
        item(
          `${at}.bill_period_to_date`,
          'start_date_later_than_end_date',
          'bill_period_to_date may not be before bill_period_from_date.',
        ),
      );
    }
    if (s.statement_path === undefined) return;
    const pathAt = `${at}.statement_path`;
    const resolved = resolveDocumentKey(documentRoot, s.statement_path);
    if (!resolved.ok) {
      errors.push(item(pathAt, resolved.code, resolved.detail));
      return;
    }
    const start = await objectStore.readStart(resolved.key, PDF_MAGIC.length, {
      within: documentRoot,
    });
    if (start === null) {
      errors.push(item(pathAt, 'path_does_not_exist_in_file_store', 'No document exists at that path.'));
    } else if (!start.equals(PDF_MAGIC)) {
      errors.push(item(pathAt, 'invalid_statement_document', 'The statement document is not a PDF.'));
    }
  });
  if (errors.length > 0) throw followUpValidationFailed(errors);

  const statements = request.statements.map(normalise);
  await db.transaction(async (tx) => {
    const locked = await lockImportedAccount(tx, request.import_supplier, request.external_account_number);
    await insertStatementRows(tx, locked.id, statements);
    await recordAccountEvent(tx, {
      supplier: locked.import_supplier,
      externalAccountNumber: locked.external_account_number,
      type: FOLLOW_UP_EVENTS.STATEMENT_ADDED,
      data: { statement_ids: statements.map((s) => s.statement_id) },
    });
  });
  return {
    import_supplier: request.import_supplier,
    external_account_number: request.external_account_number,
    statements,
  };
}

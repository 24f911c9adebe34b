/**
 * The error-code reference, rendered from the two catalogues: the top-level codes
 * (error-catalogue.ts for the status, error-code-docs.ts for the text) and the item codes
 * (item-codes.ts). /docs serves it as the "Error codes" section of the API reference, and the
 * OpenAPI document lists the codes on its error schemas (src/http/openapi.ts). Nothing here is
 * written by hand: a code is documented where it is catalogued, once.
 */
import {
  ERROR_STATUS,
  type ErrorCode,
  type TransactionRefusalCode,
  type ValidationFailureCode,
} from './error-catalogue.ts';
import { ERROR_CODE_DOCS, OTHER_CODE_DOCS } from './error-code-docs.ts';
import { ITEM_CODE_DOCS, ITEM_CODE_GROUPS, type ItemCode } from './item-codes.ts';

/** Every top-level code, in the catalogue's order. */
export const TOP_LEVEL_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** Every item code, in the reference's order. */
export const ITEM_CODES: readonly ItemCode[] = ITEM_CODE_DOCS.map((doc) => doc.code);

const VALIDATION_FAILURES = {
  validation_error: true,
  account_failed_validation: true,
  import_process_failed_validation: true,
  document_root_overlaps: true,
} as const satisfies Record<ValidationFailureCode, true>;

const TRANSACTION_REFUSALS = {
  transaction_in_future: true,
  transaction_outside_open_statement_period: true,
  product_code_does_not_exist: true,
} as const satisfies Record<TransactionRefusalCode, true>;

/** The top-level codes a body with `errors` (ValidationError) carries. */
export const VALIDATION_FAILURE_CODES = Object.keys(VALIDATION_FAILURES) as ValidationFailureCode[];

/** The codes of a TRANSACTION_IMPORT_ERROR body. */
export const TRANSACTION_REFUSAL_CODES = Object.keys(TRANSACTION_REFUSALS) as TransactionRefusalCode[];

/** A Markdown table cell: no line breaks, pipes escaped. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
const table = (head: string[], rows: string[][]) =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

const INTRODUCTION = `Every error body carries a machine-readable \`code\`; \`detail\` says the same to a person and may
change, so do not parse it. A validation failure (\`${VALIDATION_FAILURE_CODES.join('`, `')}\`) lists every problem
at once in \`errors\`, each item with its own \`code\` and the \`attr\` it is about (a dot-delimited path from the
payload root). Codes are stable; new ones may be added, so treat a code you do not know by its HTTP status
(4xx: change the request; 5xx, 408 and 429: retry it unchanged, later). Search this page for a code.`;

function topLevelSection(): string {
  const rows = TOP_LEVEL_CODES.map((code) => {
    const doc = ERROR_CODE_DOCS[code];
    return [`\`${code}\``, String(ERROR_STATUS[code]), doc.means, doc.where, doc.todo];
  });
  return `# Top-level codes\n\nThe \`code\` of an error body.\n\n${table(
    ['Code', 'HTTP', 'What it means', 'Where', 'What to do'],
    rows,
  )}`;
}

function itemSections(): string[] {
  return ITEM_CODE_GROUPS.map((group) => {
    const docs = ITEM_CODE_DOCS.filter((doc) => doc.group === group.title);
    const rows = docs.map((doc) => [
      `\`${doc.code}\``,
      doc.where === group.where ? doc.means : `${doc.means} (${doc.where})`,
      doc.todo,
    ]);
    return `# Item codes: ${group.title}\n\nThe \`code\` of an item of \`errors\`, in a 400. Where: ${group.where}\n\n${table(
      ['Code', 'What it means', 'What to do'],
      rows,
    )}`;
  });
}

function otherSection(): string {
  const rows = OTHER_CODE_DOCS.map((doc) => [`\`${doc.code}\``, doc.status, doc.means, doc.where, doc.todo]);
  return `# Codes outside error bodies\n\nThe token mutation answers its errors the GraphQL way, \`ferry push\`'s whole-book preflight reports what only the book shows, and a process that failed keeps its error in \`latest_error\` (its codes are the creation failures above, and schedule_window_expired).\n\n${table(
    ['Code', 'HTTP', 'What it means', 'Where', 'What to do'],
    rows,
  )}`;
}

/** The reference as Markdown: an introduction, then one `#` section per table (Redoc's menu and search). */
export function renderErrorCodeReference(): string {
  return [INTRODUCTION, topLevelSection(), ...itemSections(), otherSection()].join('\n\n');
}

/**
 * The item-code catalogue: every `code` an item of a validation error's `errors` can carry, what
 * it means and what the client should do, in groups by where it occurs. The top-level codes are
 * in error-catalogue.ts (with their statuses) and error-code-docs.ts (what they mean).
 *
 * The keys are the type ItemCode, which ErrorItem.code, `item()` and CheckContext.report take:
 * a rule that reports a code this catalogue lacks does not compile. The reference in /docs
 * (error-code-reference.ts) is rendered from these tables, so nothing is written twice.
 */
import { ACCOUNT_RULE_CODES, ACCOUNT_RULE_PARTS } from './item-codes/account-rules.ts';
// The engine's codes (reading the body, structure, field formats) and the endpoints' own codes
// (scheduling, follow-up imports, the operator's API) are data: a sentence per code, or an object
// with `means` and, where the group's do not fit, `todo` and `where`.
import engineCodes from './item-codes/engine.json' with { type: 'json' };
import serviceCodes from './item-codes/services.json' with { type: 'json' };

/** What a code means (a sentence), or that and what to do and where it occurs when its group's do not fit. */
export type ItemCodeEntry = string | { means: string; todo?: string; where?: string };

export interface ItemCodeGroup {
  /** The group's heading in the reference. */
  title: string;
  /** Where its codes occur. */
  where: string;
  /** What the client should do, unless a code says otherwise. */
  todo: string;
  codes: Readonly<Record<string, ItemCodeEntry>>;
}

const REQUEST_CODES = engineCodes.request satisfies Record<string, ItemCodeEntry>;
const STRUCTURE_CODES = engineCodes.structure satisfies Record<string, ItemCodeEntry>;
/** The codes of the field formats, each with the sentence a failure's `detail` gives. */
const FORMAT_CODES = engineCodes.formats satisfies Record<string, string>;
const SCHEDULING_CODES = serviceCodes.scheduling satisfies Record<string, ItemCodeEntry>;
const FOLLOW_UP_CODES = serviceCodes.follow_ups satisfies Record<string, ItemCodeEntry>;
const OPERATOR_CODES = serviceCodes.operator satisfies Record<string, ItemCodeEntry>;
const WAVE_CODES = serviceCodes.waves satisfies Record<string, ItemCodeEntry>;
const EVENT_CODES = serviceCodes.events satisfies Record<string, ItemCodeEntry>;

type AccountRuleCode = {
  [Part in keyof typeof ACCOUNT_RULE_CODES]: keyof (typeof ACCOUNT_RULE_CODES)[Part];
}[keyof typeof ACCOUNT_RULE_CODES];

/** Every code an item of `errors` can carry. */
export type ItemCode =
  | keyof typeof REQUEST_CODES
  | keyof typeof STRUCTURE_CODES
  | keyof typeof FORMAT_CODES
  | AccountRuleCode
  | keyof typeof SCHEDULING_CODES
  | keyof typeof FOLLOW_UP_CODES
  | keyof typeof OPERATOR_CODES
  | keyof typeof WAVE_CODES
  | keyof typeof EVENT_CODES;

const ACCOUNT_ENDPOINTS =
  'the account endpoints (V2 validate, create and bulk; V1 validate-account, create-or-update and process)';
const CORRECT_AND_RESEND = 'Correct the value at `attr` as the detail says, and send the request again.';

export const ITEM_CODE_GROUPS: readonly ItemCodeGroup[] = [
  {
    title: 'Reading the body',
    where: 'Any request body or query string.',
    todo: 'Correct the JSON as the detail says, and send the request again.',
    codes: REQUEST_CODES,
  },
  {
    title: 'Structure',
    where: "Any request body, query string or path parameter, checked against the operation's schema.",
    todo: 'Send the field as the schema in this document describes it.',
    codes: STRUCTURE_CODES,
  },
  {
    title: 'Field formats',
    where: 'A field with a `format` in the schema: the account payload and the follow-up imports.',
    todo: 'Correct the value to its format, and send the request again.',
    codes: FORMAT_CODES,
  },
  ...Object.entries(ACCOUNT_RULE_CODES).map(([part, codes]) => ({
    title: `Account rules: ${ACCOUNT_RULE_PARTS[part as keyof typeof ACCOUNT_RULE_CODES]}`,
    where: `The account payload, on ${ACCOUNT_ENDPOINTS}.`,
    todo: 'Correct the account data so that it holds together, as the detail says; nothing was created.',
    codes,
  })),
  {
    title: 'Scheduling and staging accounts',
    where: `The account itself and its task_params, on ${ACCOUNT_ENDPOINTS}.`,
    todo: CORRECT_AND_RESEND,
    codes: SCHEDULING_CODES,
  },
  {
    title: 'Follow-up imports',
    where: 'The notes, transactions, historical statements and payment instruction imports.',
    todo: CORRECT_AND_RESEND,
    codes: FOLLOW_UP_CODES,
  },
  {
    title: "The operator's API",
    where: 'The admin API (/admin/v1/), which the operator CLI and dashboard call.',
    todo: CORRECT_AND_RESEND,
    codes: OPERATOR_CODES,
  },
  {
    title: 'Waves',
    where:
      "A wave's expectations (PUT /v2/data-import/waves/<supplier>/<wave>/expectations/), at `<line>.<field>`.",
    todo: 'Correct the lines named, and upload the whole file again: nothing of it was stored.',
    codes: WAVE_CODES,
  },
  {
    title: 'Events',
    where:
      'The event feed (GET /v2/data-import/events/), at `after` or `types`; a webhook endpoint (POST /admin/v1/webhook-endpoints/), at `types.N`.',
    todo: CORRECT_AND_RESEND,
    codes: EVENT_CODES,
  },
];

/** One item code as the reference gives it. */
export interface ItemCodeDoc {
  code: ItemCode;
  group: string;
  means: string;
  todo: string;
  where: string;
}

function docsOf(group: ItemCodeGroup): ItemCodeDoc[] {
  return Object.entries(group.codes).map(([code, entry]) => {
    const {
      means,
      todo = group.todo,
      where = group.where,
    } = typeof entry === 'string' ? { means: entry } : entry;
    return { code: code as ItemCode, group: group.title, means, todo, where };
  });
}

/** Every item code, in the reference's order. */
export const ITEM_CODE_DOCS: readonly ItemCodeDoc[] = ITEM_CODE_GROUPS.flatMap(docsOf);

/** The sentence of each field-format code: the detail its failure answers. */
export const FORMAT_CODE_DETAILS: Readonly<Record<keyof typeof FORMAT_CODES, string>> = FORMAT_CODES;

/**
 * The items of a validation error body. The top-level codes, their statuses and the errors that
 * carry them are in error-catalogue.ts; every item code is in item-codes.ts.
 */
import type { ItemCode } from './item-codes.ts';

/** One item of a validation error body: `attr` is dot-delimited from the payload root. */
export interface ErrorItem {
  detail: string;
  code: ItemCode;
  attr: string;
}

export const item = (attr: string, code: ItemCode, detail: string): ErrorItem => ({ attr, code, detail });

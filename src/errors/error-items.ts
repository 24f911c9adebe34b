/**
 * The items of a validation error body. The top-level codes, their statuses and the errors that
 * carry them are in error-catalogue.ts.
 */

/** One item of a validation error body: `attr` is dot-delimited from the payload root. */
export interface ErrorItem {
  detail: string;
  code: string;
  attr: string;
}

export const item = (attr: string, code: string, detail: string): ErrorItem => ({ attr, code, detail });

/**
 * A supplier's program that meets Ferry's refusals through the client generated from
 * /openapi.json and reads every field of every error body with no cast: the types say which body
 * a status carries, and `in` tells apart the shapes one status can take. If a body's schema lost a
 * required field or its name, this file would stop compiling (the test type-checks it with
 * `tsc --strict`). Like client-program.ts it uses only the generated types and openapi-fetch.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi.ts';

type Account = components['schemas']['AccountPayload'];
type ErrorItem = components['schemas']['ErrorItem'];

export interface ErrorProgramInput {
  baseUrl: string;
  /** A token whose key covers `supplier` only. */
  token: string;
  /** A token of another key of `supplier`, spent on the rate limit. */
  burstToken: string;
  supplier: string;
  /** An account of `supplier` that has been imported already. */
  imported: Account;
  /** An account of `supplier` whose first customer's landline is not a phone number. */
  invalid: Account;
  /** The rate limit per key and second (RATE_LIMIT_PER_SECOND). */
  ratePerSecond: number;
}

const itemText = (item: ErrorItem) => `${item.attr} ${item.code}`;

export async function runErrorProgram(input: ErrorProgramInput): Promise<string[]> {
  const steps: string[] = [];
  const ferry = createClient<paths>({
    baseUrl: input.baseUrl,
    headers: { authorization: `Token ${input.token}` },
  });
  const external = String(input.imported.external_account_number);
  const account = { import_supplier: input.supplier, external_account_number: external };

  // 400 ValidationError: every problem in `errors`, each with its attr.
  const validated = await ferry.POST('/v2/data-import/accounts/validate/', { body: input.invalid });
  if (!validated.error || !('errors' in validated.error)) throw new Error('validate: no validation error');
  const phone = validated.error.errors.find((e) => e.code === 'invalid_phone_number');
  steps.push(
    `validate ${validated.response.status} ${validated.error.code} ${phone ? itemText(phone) : '-'}`,
  );

  // 400 on create: a validation failure with its domain, or the account that exists already.
  const refused = await ferry.POST('/v2/data-import/accounts/', {
    body: { payload: input.invalid, task_params: { is_dry_run: false } },
  });
  if (!refused.error) throw new Error('create: not refused');
  // Every body the create endpoint answers with 400 has a top-level code: read before telling them apart.
  const refusedCode: string = refused.error.code;
  if ('non_field_errors' in refused.error) throw new Error('create: already imported');
  const first = 'errors' in refused.error ? refused.error.errors[0] : undefined;
  steps.push(
    `create ${refused.response.status} ${refusedCode} ${refused.error.domain} ${first ? itemText(first) : '-'}`,
  );

  const again = await ferry.POST('/v2/data-import/accounts/', { body: input.imported });
  if (!again.error || !('non_field_errors' in again.error))
    throw new Error('create again: not already imported');
  steps.push(
    `already imported ${again.response.status} ${again.error.code} ${again.error.non_field_errors.code} ${again.error.account_id !== ''}`,
  );

  // 400 TRANSACTION_IMPORT_ERROR: the first transaction that cannot be added, as sent.
  const tomorrow = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const transactions = await ferry.POST('/v1/data-import/transactions/create/', {
    body: {
      ...account,
      transactions: [
        {
          transaction_id: 'future-1',
          transaction_date: tomorrow,
          amount: '1.00',
          type: 'PAYMENT',
          reason: 'ACCOUNT_CHARGE_PAYMENT',
        },
      ],
    },
  });
  if (!transactions.error || !('transaction_data' in transactions.error)) {
    throw new Error(`transactions: ${JSON.stringify(transactions.error)}`);
  }
  const { status, code, error_detail, transaction_data } = transactions.error;
  steps.push(
    `transactions ${transactions.response.status} ${status} ${code} ${error_detail !== ''} ${transaction_data.transaction_id}`,
  );

  // The payment-instruction endpoint's bodies carry the request's identifying fields.
  const instruction = await ferry.POST('/v1/data-import/payment-instruction/create/', {
    body: { ...account, vendor: 'GOCARDLESS', type: 'DIRECT_DEBIT', reference: 'MD000NOSUCHMANDATE' },
  });
  // Its 401, 403 and 429 are the plain Error every data-import route answers: `in` tells them apart.
  if (!instruction.error || !('error_detail' in instruction.error) || 'errors' in instruction.error) {
    throw new Error(`payment instruction: ${JSON.stringify(instruction.error)}`);
  }
  steps.push(
    `payment instruction ${instruction.response.status} ${instruction.error.code} ${instruction.error.vendor} ` +
      `${instruction.error.reference} ${instruction.error.error_detail === instruction.error.detail}`,
  );
  // A vendor answering for another mandate than the one asked: both named.
  const mismatch = await ferry.POST('/v1/data-import/payment-instruction/create/', {
    body: { ...account, vendor: 'GOCARDLESS', type: 'DIRECT_DEBIT', reference: 'MD_OTHER' },
  });
  if (!mismatch.error || !('error_detail' in mismatch.error) || 'errors' in mismatch.error) {
    throw new Error(`payment instruction mismatch: ${JSON.stringify(mismatch.error)}`);
  }
  steps.push(
    `payment instruction ${mismatch.response.status} ${mismatch.error.code} ${mismatch.error.reference} ${mismatch.error.vendor_reference}`,
  );
  const blank = await ferry.POST('/v1/data-import/payment-instruction/create/', {
    body: {
      ...account,
      external_account_number: '',
      vendor: 'GOCARDLESS',
      type: 'DIRECT_DEBIT',
      reference: '',
    },
  });
  if (!blank.error || !('errors' in blank.error)) throw new Error('payment instruction: valid');
  steps.push(
    `payment instruction ${blank.response.status} ${blank.error.code} ` +
      `${blank.error.errors.map(itemText).join(', ')} "${blank.error.import_supplier}"`,
  );

  // 404, 401, 403: the plain Error body.
  const missing = await ferry.GET('/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/', {
    params: { path: { import_supplier_code: input.supplier, external_identifier: `${external}-none` } },
  });
  const anonymous = createClient<paths>({ baseUrl: input.baseUrl });
  const unauthenticated = await anonymous.POST('/v1/data-import/notes/create/', {
    body: { ...account, notes: [{ body: 'No token.' }] },
  });
  const forbidden = await ferry.POST('/v1/data-import/notes/create/', {
    body: { ...account, import_supplier: `${input.supplier}_OTHER`, notes: [{ body: 'Not my supplier.' }] },
  });
  steps.push(
    `${missing.response.status} ${missing.error?.code} ${unauthenticated.response.status} ${unauthenticated.error?.code} ` +
      `${forbidden.response.status} ${forbidden.error?.code}`,
  );

  // 415 and 413: a body that is not JSON, and one over 5 MiB.
  const notJson = await ferry.POST('/v1/data-import/notes/create/', {
    body: { ...account, notes: [{ body: 'As text.' }] },
    headers: { 'content-type': 'text/plain' },
  });
  const tooLarge = await ferry.POST('/v2/data-import/accounts/validate/', {
    body: input.invalid,
    bodySerializer: () => JSON.stringify({ padding: 'x'.repeat(6 * 1024 * 1024) }),
  });
  steps.push(
    `${notJson.response.status} ${notJson.error?.code} ${tooLarge.response.status} ${tooLarge.error?.code}`,
  );

  // 429: more requests at once than the key's bucket holds; the refused say when to come back.
  const burst = createClient<paths>({
    baseUrl: input.baseUrl,
    headers: { authorization: `Token ${input.burstToken}` },
  });
  const answers = await Promise.all(
    Array.from({ length: input.ratePerSecond * 4 }, () =>
      burst.GET('/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/', {
        params: { path: { import_supplier_code: `${input.supplier}_OTHER`, external_identifier: external } },
      }),
    ),
  );
  const throttled = answers.find((a) => a.response.status === 429);
  steps.push(`429 ${throttled?.error?.code} ${Number(throttled?.response.headers.get('retry-after')) >= 1}`);
  return steps;
}

/**
 * A supplier's program for the V1 data-import endpoints, against the generated client: validate,
 * stage, process in the request, the transfer status, the three lists, and bulk scheduling. Type-checked with
 * `tsc --strict` beside freshly generated types and run against the service, like client-program.ts.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi.ts';

type Account = components['schemas']['AccountPayload'];

export async function runV1Program(input: {
  baseUrl: string;
  token: string;
  supplier: string;
  account: Account;
  /** Another account, scheduled through the bulk endpoint. */
  bulkAccount: Account;
}): Promise<string[]> {
  const steps: string[] = [];
  const ferry = createClient<paths>({
    baseUrl: input.baseUrl,
    headers: { authorization: `Token ${input.token}` },
  });
  const external = String(input.account.external_account_number);
  const supplier = { import_supplier_code: input.supplier };

  const validated = await ferry.POST('/v1/data-import/validate-account/', { body: input.account });
  const staged = await ferry.POST('/v1/data-import/account-import-process/create-or-update/', {
    body: input.account,
  });
  steps.push(`validate ${validated.response.status}, stage ${staged.response.status}`);

  const processed = await ferry.POST('/v1/data-import/account-import-process/process/', {
    body: { ...supplier, external_account_number: external, dry_run: false },
  });
  if (!processed.data) throw new Error(`process: ${JSON.stringify(processed.error)}`);
  const status = await ferry.GET(
    '/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/',
    { params: { path: { ...supplier, external_account_number: external } } },
  );
  steps.push(`process ${processed.response.status}, status ${status.data?.status}`);

  const path = { params: { path: supplier } };
  const all = await ferry.GET('/v1/data-import/all-account-import-processes/{import_supplier_code}/', path);
  const pending = await ferry.GET(
    '/v1/data-import/pending-account-import-processes/{import_supplier_code}/',
    path,
  );
  const imported = await ferry.GET(
    '/v1/data-import/imported-account-import-processes/{import_supplier_code}/',
    path,
  );
  steps.push(`lists ${all.data?.length} ${pending.data?.length} ${imported.data?.length}`);

  const bulk = await ferry.POST('/v2/data-import/accounts/bulk/', { body: [input.bulkAccount] });
  if (!bulk.data) throw new Error(`bulk: ${JSON.stringify(bulk.error)}`);
  steps.push(
    `bulk ${bulk.data.results.map((r) => `${r.status}${r.status === 201 ? '' : JSON.stringify(r.body)}`).join(',')}`,
  );
  return steps;
}

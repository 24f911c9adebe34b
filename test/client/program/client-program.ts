/**
 * A supplier's program written against the client generated from Ferry's /openapi.json: it
 * validates and schedules an account, polls until it is created, then posts each follow-up.
 * The test copies it beside freshly generated types, type-checks it with `tsc --strict`, and
 * runs it against the service. It uses nothing but the generated types and openapi-fetch.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi.ts';

type Account = components['schemas']['AccountPayload'];

export interface ProgramInput {
  baseUrl: string;
  apiKey: string;
  supplier: string;
  /** The account to import, as a supplier would read it from a file. */
  account: Account;
  statementPath: string;
  mandate: string;
}

export interface ProgramResult {
  accountNumber: string;
  steps: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runClientProgram(input: ProgramInput): Promise<ProgramResult> {
  const steps: string[] = [];
  const anonymous = createClient<paths>({ baseUrl: input.baseUrl });
  const tokenAnswer = await anonymous.POST('/v1/graphql/', {
    body: {
      query: 'mutation($key: String!) { obtainToken(input: {APIKey: $key}) { token } }',
      variables: { key: input.apiKey },
    },
  });
  const token = tokenAnswer.data?.data?.obtainToken?.token;
  if (!token) throw new Error(`no token: ${JSON.stringify(tokenAnswer.error)}`);
  const ferry = createClient<paths>({ baseUrl: input.baseUrl, headers: { authorization: `Token ${token}` } });

  // The supplier's migration is going on before anything is sent.
  const supplier = await ferry.GET('/v2/data-import/suppliers/{import_supplier_code}/', {
    params: { path: { import_supplier_code: input.supplier } },
  });
  if (supplier.error) throw new Error(`supplier: ${JSON.stringify(supplier.error)}`);
  steps.push(`supplier ${supplier.data.status}`);

  const validated = await ferry.POST('/v2/data-import/accounts/validate/', { body: input.account });
  if (validated.error) throw new Error(`validate: ${JSON.stringify(validated.error)}`);
  steps.push(`validate ${validated.response.status}`);

  const scheduled = await ferry.POST('/v2/data-import/accounts/', {
    body: { payload: input.account, task_params: { is_dry_run: false } },
  });
  if (scheduled.error) throw new Error(`schedule: ${JSON.stringify(scheduled.error)}`);
  steps.push(`schedule ${scheduled.response.status}`);

  const external = String(input.account.external_account_number);
  let accountNumber: string | null = null;
  for (let attempt = 0; attempt < 300 && accountNumber === null; attempt++) {
    const status = await ferry.GET('/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/', {
      params: { path: { import_supplier_code: input.supplier, external_identifier: external } },
    });
    if (status.error) throw new Error(`status: ${JSON.stringify(status.error)}`);
    if (status.data.status === 'PROCESSED') accountNumber = status.data.service_identifier ?? null;
    else if (status.data.status === 'ERRORED') throw new Error(`errored: ${status.data.latest_error?.code}`);
    else await sleep(50);
  }
  if (accountNumber === null) throw new Error('the account was not created in time');
  steps.push('processed');

  // The same status in a batch, beside an identifier that does not exist.
  const statuses = await ferry.POST('/v2/data-import/accounts/statuses/', {
    body: { import_supplier: input.supplier, external_identifiers: [external, `${external}-none`] },
  });
  if (statuses.error) throw new Error(`statuses: ${JSON.stringify(statuses.error)}`);
  const [found, none] = statuses.data.results;
  const foundNumber = 'service_identifier' in found.body ? found.body.service_identifier : null;
  if (foundNumber !== accountNumber) throw new Error(`statuses: ${JSON.stringify(found)}`);
  steps.push(`statuses ${found.status} ${none.status}`);

  // The same account again in bulk: created already, so its line answers the already-imported body.
  const bulk = await ferry.POST('/v2/data-import/accounts/bulk/', { body: [input.account] });
  if (bulk.error) throw new Error(`bulk: ${JSON.stringify(bulk.error)}`);
  const [line] = bulk.data.results;
  const imported = 'account_id' in line.body ? line.body.account_id : null;
  if (imported !== accountNumber) throw new Error(`bulk: ${JSON.stringify(line)}`);
  steps.push(`bulk ${bulk.response.status} ${line.status}`);

  const account = { import_supplier: input.supplier, external_account_number: external };
  const notes = await ferry.POST('/v1/data-import/notes/create/', {
    body: { ...account, notes: [{ body: 'Migrated by the typed client.', is_pinned: false }] },
  });
  if (notes.error) throw new Error(`notes: ${JSON.stringify(notes.error)}`);
  steps.push(`notes ${notes.response.status}`);

  const today = new Date().toISOString().slice(0, 10);
  const transactions = await ferry.POST('/v1/data-import/transactions/create/', {
    params: { query: { check_previously_added: true, force_add_to_current_statement: false } },
    body: {
      ...account,
      transactions: [
        {
          transaction_id: 'client-1',
          transaction_date: today,
          amount: '12.50',
          type: 'PAYMENT',
          reason: 'ACCOUNT_CHARGE_PAYMENT',
        },
      ],
    },
  });
  if (transactions.error) throw new Error(`transactions: ${JSON.stringify(transactions.error)}`);
  // Each result's transaction as added: its fields typed (money as a two-decimal string).
  const [added] = transactions.data.results;
  const addedData = added?.transaction_data;
  steps.push(
    `transactions ${transactions.response.status} ${added?.status} ` +
      `${addedData?.transaction_id} ${addedData?.type} ${addedData?.amount} ${addedData?.transaction_date === today}`,
  );

  const statements = await ferry.POST('/v1/data-import/historical-statements/create/', {
    body: {
      ...account,
      statements: [
        {
          statement_id: 'client-statement-1',
          bill_period_from_date: '2019-06-01',
          bill_period_to_date: '2019-06-30',
          gross_amount: 4200,
          statement_path: input.statementPath,
        },
      ],
    },
  });
  if (statements.error) throw new Error(`statements: ${JSON.stringify(statements.error)}`);
  steps.push(`statements ${statements.response.status}`);

  const instruction = await ferry.POST('/v1/data-import/payment-instruction/create/', {
    body: { ...account, vendor: 'GOCARDLESS', type: 'DIRECT_DEBIT', reference: input.mandate },
  });
  if (instruction.error) throw new Error(`payment instruction: ${JSON.stringify(instruction.error)}`);
  steps.push(`payment instruction ${instruction.response.status}`);

  // A whole book checked a thousand accounts a request: the imported account is valid as it is.
  const checked = await ferry.POST('/v2/data-import/accounts/validate/bulk/', { body: [input.account] });
  if (checked.error) throw new Error(`validate bulk: ${JSON.stringify(checked.error)}`);
  steps.push(`validate bulk ${checked.response.status} ${checked.data.results[0]?.status}`);

  // A wave's expectations (the source system's figures, NDJSON), its reconciliation and differences.
  const wave = { import_supplier_code: input.supplier, wave: 'client-wave' };
  const expected = `${JSON.stringify({ external_account_number: `${external}-source`, ledger_balance: '1.00' })}\n`;
  const uploaded = await ferry.PUT('/v2/data-import/waves/{import_supplier_code}/{wave}/expectations/', {
    params: { path: wave },
    body: expected as never, // NDJSON: openapi-fetch types only JSON request bodies
    bodySerializer: () => expected,
    headers: { 'content-type': 'application/x-ndjson' },
  });
  if (uploaded.error) throw new Error(`expectations: ${JSON.stringify(uploaded.error)}`);
  const waves = await ferry.GET('/v2/data-import/waves/{import_supplier_code}/', {
    params: { path: { import_supplier_code: input.supplier } },
  });
  if (waves.error) throw new Error(`waves: ${JSON.stringify(waves.error)}`);
  const reconciled = await ferry.GET('/v2/data-import/waves/{import_supplier_code}/{wave}/reconciliation/', {
    params: { path: wave },
  });
  if (reconciled.error) throw new Error(`reconciliation: ${JSON.stringify(reconciled.error)}`);
  const differences = await ferry.GET(
    '/v2/data-import/waves/{import_supplier_code}/{wave}/reconciliation/differences/',
    { params: { path: wave }, parseAs: 'text' },
  );
  if (differences.error) throw new Error(`differences: ${JSON.stringify(differences.error)}`);
  // NDJSON: one JSON value a line, read by the program itself.
  const first = JSON.parse(String(differences.data).split('\n')[0]) as { kind: string }; // NDJSON line
  steps.push(
    `wave ${uploaded.data.accounts} ${waves.data.results.map((w) => w.wave).join(',')} ` +
      `${reconciled.data.status} missing ${reconciled.data.accounts.missing} ${first.kind}`,
  );

  // What happened to the account, from the event feed: its creation, then what was added to it.
  // The feed shows an event once every transaction older than it has ended (its ordering promise),
  // so on a busy server a client reads again until the event is there.
  const readFeed = async () => {
    const feed = await ferry.GET('/v2/data-import/events/', {
      params: { query: { import_supplier: input.supplier, types: 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED' } },
    });
    if (feed.error) throw new Error(`events: ${JSON.stringify(feed.error)}`);
    // The path also serves text/event-stream: JSON is what a request without that Accept gets.
    if (typeof feed.data === 'string') throw new Error('events: a stream where JSON was asked for');
    const page = feed.data;
    return { page, processed: page.events.find((e) => e.external_account_number === external) };
  };
  let { page, processed } = await readFeed();
  for (let tries = 0; !processed && tries < 100; tries++) {
    await sleep(100);
    ({ page, processed } = await readFeed());
  }
  steps.push(`events ${processed?.type} ${processed?.data.status} ${page.next_cursor === processed?.id}`);

  // The product catalogue as suppliers read it (none loaded here: version null, tariffs form-checked).
  const catalogue = await ferry.GET('/v2/data-import/products/', { params: { query: { limit: '10' } } });
  if (catalogue.error) throw new Error(`products: ${JSON.stringify(catalogue.error)}`);
  steps.push(
    `products ${catalogue.data.version} ${catalogue.data.products.length} ${catalogue.data.next_after}`,
  );
  return { accountNumber, steps };
}

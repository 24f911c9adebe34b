/**
 * /openapi.json is good enough for code generators: every operation named, no response left as
 * "Default Response", and Redocly's recommended rules find no error but the trailing slashes
 * the interface's paths require. (The client generated from it is tested in test/client/.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { OPERATION_IDS } from '../../src/http/operation-ids.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

type Operation = { operationId?: string; responses?: Record<string, { description?: string }> };

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: { paths: Record<string, Record<string, Operation>> };
  before(async () => {
    t = await createTestApp();
    document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  after(() => t.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
    );

  it('names every operation, each name once', () => {
    const unnamed = operations().filter(({ op }) => !op.operationId);
    assert.deepEqual(
      unnamed.map((o) => o.name),
      [],
      'add them to src/http/operation-ids.ts',
    );
    const ids = Object.values(OPERATION_IDS);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('describes every response by its status', () => {
    const vague = operations().flatMap(({ name, op }) =>
      Object.entries(op.responses ?? {})
        .filter(([, r]) => r.description === 'Default Response')
        .map(([status]) => `${name} ${status}`),
    );
    assert.deepEqual(vague, []);
  });

  it('names the account payload and each of its parts as components', () => {
    const components = (
      document as unknown as { components: { schemas: Record<string, Record<string, any>> } }
    ).components.schemas;
    for (const name of [
      'AccountPayload',
      'Customer',
      'SupplyAddress',
      'ElectricityMeterPoint',
      'GasMeterPoint',
      'Ledger',
    ])
      assert.ok(components[name], `${name} is a component`);
    assert.equal(components.AccountPayload.properties.customers.items.$ref, '#/components/schemas/Customer');
    // Identical parts share one component: the transactions of every statement list.
    const { current_statement_transactions: current, historical_statement_transactions: historical } =
      components.AccountPayload.properties;
    assert.deepEqual(current.items, historical.items);
  });

  it("passes Redocly's recommended rules but the trailing slashes the interface requires", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = problems
      .filter((p) => p.severity === 'error' && p.ruleId !== 'no-path-trailing-slash')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    assert.deepEqual(errors, []);
  });

  it('names every error code: the reference section, and x-codes on the error schemas', () => {
    const text = JSON.stringify(document);
    for (const code of ['meter_point_on_another_account', 'invalid_phone_number'])
      assert.ok(text.includes(code), `${code} is named`);
    const { tags, components } = document as unknown as {
      tags: { name: string; description: string; 'x-traitTag'?: boolean }[];
      components: { schemas: Record<string, { properties: Record<string, { 'x-codes'?: string[] }> }> };
    };
    const reference = tags.find((tag) => tag.name === 'Error codes');
    assert.equal(reference?.['x-traitTag'], true);
    assert.match(reference?.description ?? '', /`meter_point_on_another_account` \| 400 \|/);
    const codesOf = (schema: string) => components.schemas[schema].properties.code['x-codes'] ?? [];
    assert.ok(codesOf('Error').includes('meter_point_on_another_account'));
    assert.ok(codesOf('ErrorItem').includes('invalid_phone_number'));
    assert.deepEqual(codesOf('TransactionImportError'), [
      'transaction_in_future',
      'transaction_outside_open_statement_period',
      'product_code_does_not_exist',
    ]);
  });

  it('names each error body as a component with the fields it always has required', () => {
    const { components } = document as unknown as {
      components: { schemas: Record<string, { required?: string[]; additionalProperties?: unknown }> };
    };
    const required = (schema: string) => [...(components.schemas[schema].required ?? [])].sort();
    assert.deepEqual(required('Error'), ['code', 'detail']);
    assert.deepEqual(required('ValidationError'), ['code', 'detail', 'errors']);
    assert.deepEqual(required('ErrorItem'), ['attr', 'code', 'detail']);
    assert.deepEqual(required('AccountAlreadyImported'), [
      'account_id',
      'code',
      'detail',
      'non_field_errors',
    ]);
    assert.deepEqual(required('TransactionImportError'), [
      'code',
      'error_detail',
      'status',
      'transaction_data',
    ]);
    // No index signature in generated types: the bodies are told apart with `in`.
    for (const schema of ['Error', 'ValidationError', 'AccountAlreadyImported', 'TransactionImportError'])
      assert.equal(components.schemas[schema].additionalProperties, undefined, schema);
  });
});

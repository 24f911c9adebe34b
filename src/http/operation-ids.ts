/**
 * One `operationId` per operation, the names a generated client's methods take. Listed here, not
 * derived from paths, so renaming a route never renames a client's method by accident; the
 * OpenAPI test fails when a route is missing from this table.
 */
export const OPERATION_IDS: Record<string, string> = {
  'POST /v1/graphql/': 'graphql',
  'POST /v2/data-import/accounts/validate/': 'validateAccount',
  'POST /v2/data-import/accounts/': 'scheduleAccountCreation',
  'POST /v2/data-import/accounts/bulk/': 'scheduleAccountCreationInBulk',
  'POST /v2/data-import/accounts/validate/bulk/': 'validateAccountsInBulk',
  'GET /v2/data-import/waves/:import_supplier_code/': 'listWaves',
  'GET /v2/data-import/events/': 'listEvents',
  'PUT /v2/data-import/waves/:import_supplier_code/:wave/expectations/': 'putWaveExpectations',
  'GET /v2/data-import/waves/:import_supplier_code/:wave/reconciliation/': 'getWaveReconciliation',
  'GET /v2/data-import/waves/:import_supplier_code/:wave/reconciliation/differences/': 'getWaveDifferences',
  'GET /v2/data-import/accounts/:import_supplier_code/:external_identifier/': 'getAccountImportStatus',
  'GET /v2/data-import/suppliers/:import_supplier_code/': 'getImportSupplierStatus',
  'POST /v2/data-import/accounts/statuses/': 'getAccountImportStatuses',
  'POST /v1/data-import/validate-account/': 'validateAccountV1',
  'POST /v1/data-import/account-import-process/create-or-update/': 'createOrUpdateAccountImportProcess',
  'POST /v1/data-import/account-import-process/process/': 'processAccountImportProcess',
  'GET /v1/data-import/account-transfer-status/:import_supplier_code/:external_account_number/':
    'getAccountTransferStatus',
  'GET /v1/data-import/all-account-import-processes/:import_supplier_code/': 'listAllAccountImportProcesses',
  'GET /v1/data-import/pending-account-import-processes/:import_supplier_code/':
    'listPendingAccountImportProcesses',
  'GET /v1/data-import/imported-account-import-processes/:import_supplier_code/':
    'listImportedAccountImportProcesses',
  'POST /v1/data-import/transactions/create/': 'createTransactions',
  'POST /v1/data-import/notes/create/': 'createNotes',
  'POST /v1/data-import/historical-statements/create/': 'createHistoricalStatements',
  'POST /v1/data-import/payment-instruction/create/': 'createPaymentInstruction',
  'POST /admin/v1/import-suppliers/': 'adminCreateImportSupplier',
  'GET /admin/v1/import-suppliers/': 'adminListImportSuppliers',
  'GET /admin/v1/import-suppliers/:code/': 'adminGetImportSupplier',
  'PATCH /admin/v1/import-suppliers/:code/': 'adminUpdateImportSupplier',
  'POST /admin/v1/api-keys/': 'adminCreateApiKey',
  'GET /admin/v1/api-keys/': 'adminListApiKeys',
  'DELETE /admin/v1/api-keys/:id/': 'adminRevokeApiKey',
  'GET /admin/v1/import-processes/': 'adminListImportProcesses',
  'GET /admin/v1/import-processes/export/': 'adminExportImportProcesses',
  'POST /admin/v1/import-processes/cancel/': 'adminCancelImportProcessesByFilter',
  'POST /admin/v1/import-processes/retry/': 'adminRetryImportProcessesByFilter',
  'GET /admin/v1/import-suppliers/:code/progress/': 'adminGetImportSupplierProgress',
  'GET /admin/v1/import-processes/:supplier/:external/': 'adminGetImportProcess',
  'POST /admin/v1/import-processes/:supplier/:external/cancel/': 'adminCancelImportProcess',
  'POST /admin/v1/import-processes/:supplier/:external/retry/': 'adminRetryImportProcess',
  'GET /admin/v1/email-outbox/': 'adminGetEmailOutbox',
  'POST /admin/v1/waves/:supplier/:wave/approve/': 'adminApproveWave',
  'POST /admin/v1/waves/:supplier/:wave/rollback/': 'adminRollBackWave',
  'POST /admin/v1/webhook-endpoints/': 'adminCreateWebhookEndpoint',
  'GET /admin/v1/webhook-endpoints/': 'adminListWebhookEndpoints',
  'GET /admin/v1/webhook-endpoints/:id/': 'adminGetWebhookEndpoint',
  'PATCH /admin/v1/webhook-endpoints/:id/': 'adminUpdateWebhookEndpoint',
  'DELETE /admin/v1/webhook-endpoints/:id/': 'adminDeleteWebhookEndpoint',
  'PUT /admin/v1/products/': 'adminPutCatalogue',
  'GET /admin/v1/products/': 'adminListCatalogue',
  'PUT /admin/v1/code-lists/:name/': 'adminPutCodeList',
  'GET /admin/v1/code-lists/': 'adminListCodeLists',
  'GET /v2/data-import/products/': 'listProducts',
  'GET /admin/v1/webhook-endpoints/:id/deliveries/': 'adminListWebhookDeliveries',
  'POST /admin/v1/webhook-endpoints/:id/test/': 'adminSendWebhookTestEvent',
};

/** The operation's id, or undefined for a route the table does not name yet. */
export const operationIdOf = (method: string, url: string): string | undefined =>
  OPERATION_IDS[`${method} ${url}`];

import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Registry } from 'prom-client';
import { registerImportMetrics } from './account-import/metrics/import-metrics.ts';
import { importProcessAdminRoutes } from './account-import/operator/process.admin-routes.ts';
import { processListAdminRoutes } from './account-import/operator/process-lists.admin-routes.ts';
import { IMPORTS_DUE_CHANNEL } from './account-import/queue/due-notice.ts';
import { accountImportRoutes } from './account-import/scheduling/scheduling.routes.ts';
import { statusRoutes } from './account-import/status/status.routes.ts';
import { waveAdminRoutes } from './account-import/waves/waves.admin-routes.ts';
import { waveRoutes } from './account-import/waves/waves.routes.ts';
import { registerOutboxMetrics } from './accounts/welcome-emails/outbox-metrics.ts';
import { catalogueAdminRoutes } from './api/catalogue.admin-routes.ts';
import { emailOutboxAdminRoutes } from './api/email-outbox.admin-routes.ts';
import { notesRoutes } from './api/follow-ups/notes.routes.ts';
import { paymentInstructionRoutes } from './api/follow-ups/payment-instructions.routes.ts';
import { statementsRoutes } from './api/follow-ups/statements.routes.ts';
import { transactionsRoutes } from './api/follow-ups/transactions.routes.ts';
import { productRoutes } from './api/products.routes.ts';
import { apiKeyAdminRoutes } from './auth/api-keys.admin-routes.ts';
import { CredentialThrottle } from './auth/credential-throttle.ts';
import { KeyScopes } from './auth/key-scopes.ts';
import { registerOperatorAuth } from './auth/operator-auth.ts';
import { registerTokenAuth } from './auth/token-auth.ts';
import { registerTokenMutation } from './auth/token-mutation.ts';
import { TokenService } from './auth/tokens.ts';
import { ReferenceCache } from './catalogue/reference-cache.ts';
import type { FerryConfig } from './config.ts';
import { dashboardRoutes } from './dashboard/dashboard.routes.ts';
import { EventHub } from './events/event-hub.ts';
import { EventNotifier, NOTIFY_INTERVAL_MS } from './events/event-notifier.ts';
import { eventRoutes } from './events/events.routes.ts';
import { webhookEndpointAdminRoutes } from './events/webhooks/webhook-endpoints.admin-routes.ts';
import type { FollowUpDeps } from './follow-ups/follow-up.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { frameworkErrorOptions, MAX_PATH_PARAM_LENGTH } from './http/framework-errors.ts';
import { healthRoutes } from './http/health.routes.ts';
import { BODY_LIMIT_BYTES, registerJsonBodies } from './http/json-body.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerPathParamGuard } from './http/path-params.ts';
import { rateLimiterFor } from './http/rate-limit.ts';
import { registerRequestDeadlines } from './http/request-deadline.ts';
import { RequestLog } from './http/request-log.ts';
import type { Db } from './infra/db/db.ts';
import { loadServiceId } from './infra/db/service-identity.ts';
import type { ObjectStore } from './infra/storage/object-store.ts';
import type { PaymentVendors } from './infra/vendors/vendor-registry.ts';
import { supplierStatusRoutes } from './suppliers/supplier-status.routes.ts';
import { supplierAdminRoutes } from './suppliers/suppliers.admin-routes.ts';
import { openSupplierCache } from './suppliers/suppliers.queries.ts';
import { linearErrorAppends } from './validation/validation-errors.ts';
import { registerFieldTypes } from './vocabulary/field-types.ts';

export interface AppDeps {
  db: Db;
  objectStore: ObjectStore;
  paymentVendors: PaymentVendors;
  /** The operator credential for /admin/ (resolved by the entry point). */
  operatorKey: string;
  logger?: FastifyServerOptions['logger'];
  /** The registry /metrics serves (the serving process's worker adds its histogram); default: a new one. */
  metrics?: Registry;
  /** The live event stream's one reader (src/events/event-hub.ts); default: one made here. The app closes it. */
  eventHub?: EventHub;
}

/**
 * The whole HTTP service as one Fastify instance; no listen (server.ts does that).
 * Plugins load in order: infrastructure, then authentication, then routes.
 */
export async function buildApp(config: FerryConfig, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    // One line per request, none for probes.
    logController: new RequestLog(),
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: config.requestTimeoutMs,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PATH_PARAM_LENGTH },
    ...frameworkErrorOptions,
    ajv: {
      customOptions: {
        allErrors: true,
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
        code: linearErrorAppends,
      },
      // After ajv-formats: `date` and `date-time` mean what they mean in the account payload.
      onCreate: registerFieldTypes,
    },
  });
  const { db } = deps;
  const tokens = await TokenService.load(db);
  const serviceId = await loadServiceId(db);
  const keyScopes = await KeyScopes.open(db, { maxAgeMs: config.cacheMaxAgeMs });
  const suppliers = await openSupplierCache(db, { maxAgeMs: config.cacheMaxAgeMs });
  // The catalogue and code lists the account checks consult, in memory (decision 0090).
  const reference = await ReferenceCache.open(db, {
    timeZone: config.serviceTimezone,
    onError: (err) => app.log.error({ err }, 'reloading the reference data failed'),
  });
  // One reader of the event feed for every live stream of the process; a coalesced NOTIFY after
  // each write that committed wakes the readers of every process (docs/decisions/0073).
  const eventHub = deps.eventHub ?? new EventHub(db, { logger: app.log });
  const eventNotifier = new EventNotifier(db);
  // The same for the workers, after a request that scheduled accounts (decision 0100).
  const dueNotifier = new EventNotifier(db, NOTIFY_INTERVAL_MS, IMPORTS_DUE_CHANNEL);
  app.addHook('onClose', async () => {
    eventNotifier.close();
    dueNotifier.close();
    await keyScopes.close();
    await suppliers.close();
    await reference.close();
  });
  // Both limits hold for the fleet, through the database (docs/decisions/0074-fleet-wide-limits.md).
  const limiter = rateLimiterFor(db, config.rateLimitPerSecond, app.log);
  app.addHook('onClose', () => limiter.close());
  // Failed credential checks per client address, shared by obtainToken and the operator key.
  const credentialThrottle = new CredentialThrottle(db, { logger: app.log });

  // End to end: a request not answered in time gets 503 (the database has the same statement_timeout).
  registerRequestDeadlines(app, config.requestTimeoutMs);
  // Hooks on every request take a callback: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // On shutdown, responses still in flight close their keep-alive connection, so close()
  // does not wait out idle sockets.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    // Live streams never end by themselves: ended here, the server's close does not wait on them.
    await eventHub.close();
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
      const route = request.routeOptions.config;
      // Validation writes nothing: every other process's feed readers need not look (decision 0100).
      if (route?.writesNothing !== true) eventNotifier.poke();
      if (route?.makesWorkDue === true) dueNotifier.poke();
    }
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  registerErrorHandling(app);
  registerJsonBodies(app);
  registerPathParamGuard(app);
  const metrics = registerMetrics(app, deps.metrics, config.metricsToken);
  registerImportMetrics(metrics, db, app.log);
  registerOutboxMetrics(metrics, db, app.log);
  await registerOpenApi(app);
  await app.register(healthRoutes, { db, detail: () => reference.detail() });
  await registerTokenMutation(app, { db, tokens, keyScopes, throttle: credentialThrottle });

  // Data-import REST routes: every one behind the token hook and supplier scoping.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, security: [{ token: [] }] };
    });
    registerTokenAuth(scope, { tokens, keyScopes, limiter });
    await scope.register(accountImportRoutes, { db, config, suppliers });
    await scope.register(statusRoutes, { db });
    await scope.register(supplierStatusRoutes, { suppliers, serviceId });
    await scope.register(waveRoutes, { db, suppliers });
    await scope.register(productRoutes, { db });
    await scope.register(eventRoutes, { db, hub: eventHub });
    // Follow-up imports on imported accounts.
    const followUp: FollowUpDeps = {
      db,
      config,
      objectStore: deps.objectStore,
      paymentVendors: deps.paymentVendors,
    };
    // follow-up routes: one register line per endpoint below
    await scope.register(transactionsRoutes, followUp);
    await scope.register(notesRoutes, followUp);
    await scope.register(statementsRoutes, followUp);
    await scope.register(paymentInstructionRoutes, followUp);
  });

  // The operator's admin API.
  await app.register(
    async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, security: [{ operator: [] }] };
      });
      registerOperatorAuth(scope, deps.operatorKey, credentialThrottle);
      await scope.register(supplierAdminRoutes, { db, suppliers });
      await scope.register(apiKeyAdminRoutes, { db, keyScopes });
      await scope.register(importProcessAdminRoutes, { db });
      await scope.register(processListAdminRoutes, { db });
      await scope.register(emailOutboxAdminRoutes, { db });
      await scope.register(waveAdminRoutes, { db });
      await scope.register(webhookEndpointAdminRoutes, { db });
      await scope.register(catalogueAdminRoutes, { db, reference });
    },
    { prefix: '/admin/v1' },
  );

  // The operator dashboard: HTML pages over the same queries, signed in with the operator key.
  await app.register(dashboardRoutes, {
    prefix: '/dashboard',
    db,
    suppliers,
    keyScopes,
    operatorKey: deps.operatorKey,
    throttle: credentialThrottle,
  });

  return app;
}

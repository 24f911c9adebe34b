import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serviceUnavailable } from '../errors/error-catalogue.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route's own REQUEST_TIMEOUT_MS (streamed lists and exports, bulk actions). */
    requestTimeoutMs?: number;
  }
  interface FastifyRequest {
    deadline: NodeJS.Timeout | null;
  }
}

function timeOut(request: FastifyRequest, reply: FastifyReply, ms: number) {
  if (reply.sent) return;
  request.log.warn({ timeoutMs: ms }, 'request timed out');
  // Streaming already began (a list): the answer cannot change any more, only end.
  if (reply.raw.headersSent) reply.raw.destroy(new Error(`request timed out after ${ms} ms`));
  else reply.send(serviceUnavailable());
}

/**
 * REQUEST_TIMEOUT_MS end to end (docs/product.md, Limits): a request not answered in time gets 503
 * `service_unavailable` (the database has the same statement_timeout, so its work stops too).
 * One timer per request, cleared when the answer is sent or the client goes. Fastify's own
 * `handlerTimeout` does the same with an AbortController per request that it aborts when the
 * request closes, which cost ≈ 6 % of a validate request's CPU (docs/performance.md); no handler
 * here reads `request.signal`.
 */
export function registerRequestDeadlines(app: FastifyInstance, defaultMs: number) {
  app.decorateRequest('deadline', null);
  app.addHook('onRequest', (request, reply, done) => {
    const ms = request.routeOptions.config?.requestTimeoutMs ?? defaultMs;
    request.deadline = setTimeout(timeOut, ms, request, reply, ms);
    done();
  });
  const clear = (request: FastifyRequest) => {
    if (request.deadline) clearTimeout(request.deadline);
  };
  app.addHook('onResponse', (request, _reply, done) => {
    clear(request);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    clear(request);
    done();
  });
}

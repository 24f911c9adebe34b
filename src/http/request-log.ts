import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/** Probes and scrapes: called every few seconds by machines, not worth a line each. */
const UNLOGGED_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Fastify's own request log lines, reshaped: one line per request once answered (instead of
 * "incoming request" and "request completed") with the request id (reqId), method, URL, route,
 * status and milliseconds; none for health probes and /metrics. A route not found is the same
 * one line, with status 404 and no route.
 */
export class RequestLog extends LogController {
  override isLogDisabled(request: FastifyRequest): boolean {
    // Called with the raw request too, before routing: then only the path is known.
    const route = request.routeOptions?.url ?? request.url?.split('?')[0];
    return route !== undefined && UNLOGGED_ROUTES.has(route);
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: request.url,
      route: request.routeOptions?.url ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request');
    else reply.log.info(line, 'request');
  }
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one request: forward it; answer in its place (429 with Retry-After,
 * 500, 503, 401); close the connection before forwarding; or forward it and close the
 * connection instead of delivering the answer (the service acted, the client never heard).
 */
export type HttpFault = 'forward' | 404 | 429 | 500 | 503 | 401 | 'drop-before' | 'drop-after';

export interface HttpFaultProxy {
  readonly url: string;
  /** How many requests met each fault. */
  readonly faults: Record<string, number>;
  close(): Promise<void>;
}

/** An HTTP proxy on loopback to `target` that injects the faults `choose` picks per request. */
export async function startHttpFaultProxy(
  target: string,
  choose: (n: number, req: http.IncomingMessage) => HttpFault,
): Promise<HttpFaultProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const faults: Record<string, number> = {};
  let n = 0;
  const server = http.createServer((req, res) => {
    const fault = choose(n++, req);
    faults[fault] = (faults[fault] ?? 0) + 1;
    if (fault === 'drop-before') {
      req.socket.destroy();
      return;
    }
    if (typeof fault === 'number') {
      req.resume();
      req.on('end', () => {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (fault === 429 || fault === 503) headers['retry-after'] = '1';
        res.writeHead(fault, headers);
        res.end(JSON.stringify({ detail: `injected ${fault}`, code: `injected_${fault}` }));
      });
      return;
    }
    const out = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        if (fault === 'drop-after') {
          answer.resume();
          answer.on('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => req.socket.destroy());
    req.pipe(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    faults,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      agent.destroy();
    },
  };
}

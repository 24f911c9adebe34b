import net from 'node:net';

/** One client connection through the proxy, with its own connection to the target. */
export interface ProxiedConnection {
  /** The proxy's local port towards the target: what PostgreSQL reports as `client_port`. */
  readonly upstreamPort: number;
  readonly stalled: boolean;
  /**
   * Stops forwarding bytes in both directions and closes nothing: a silent partition (a
   * firewall or NAT that forgot the connection). Neither end hears anything, ever.
   */
  stall(): void;
  /** Closes both sides at once, as a reset would. */
  cut(): void;
}

/**
 * What happens to new connections: forwarded; accepted and then silent (a connect that never
 * completes); or closed as soon as they arrive (a server that is down).
 */
export type ProxyMode = 'forward' | 'stall' | 'refuse';

export interface TcpProxy {
  readonly port: number;
  /** Connections open now (both ends), in the order they arrived. */
  readonly connections: readonly ProxiedConnection[];
  mode: ProxyMode;
  /** The same URL (a `postgres://` one, say) with its host and port pointing at the proxy. */
  url(target: string): string;
  stallAll(): void;
  cutAll(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on loopback to `target`, for fault tests: it can stall connections silently,
 * cut them, and refuse or black-hole new ones. It knows nothing of the protocol it carries.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Connection>();
  let mode: ProxyMode = 'forward';

  class Connection implements ProxiedConnection {
    stalled = false;
    readonly upstream: net.Socket;
    constructor(readonly client: net.Socket) {
      this.upstream = net.connect(target.port, target.host);
      for (const [from, to] of [
        [client, this.upstream],
        [this.upstream, client],
      ] as const) {
        from.on('data', (chunk) => {
          if (!this.stalled) to.write(chunk);
        });
        from.on('error', () => {});
        // A side that closes closes the other, unless the connection is stalled: then the
        // other end must not hear of it either.
        from.on('close', () => {
          if (!this.stalled) this.cut();
        });
      }
    }
    get upstreamPort() {
      return this.upstream.localPort ?? 0;
    }
    stall() {
      this.stalled = true;
    }
    cut() {
      open.delete(this);
      this.client.destroy();
      this.upstream.destroy();
    }
  }

  const server = net.createServer((client) => {
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    const c = new Connection(client);
    open.add(c);
    if (mode === 'stall') c.stall();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    get connections() {
      return [...open];
    },
    get mode() {
      return mode;
    },
    set mode(m: ProxyMode) {
      mode = m;
    },
    url(targetUrl: string) {
      const u = new URL(targetUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    stallAll() {
      for (const c of open) c.stall();
    },
    cutAll() {
      for (const c of [...open]) c.cut();
    },
    async close() {
      for (const c of [...open]) c.cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Host and port of a `postgres://` URL (defaults as libpq's). */
export function hostAndPort(databaseUrl: string): { host: string; port: number } {
  const u = new URL(databaseUrl);
  return { host: u.hostname || '127.0.0.1', port: Number(u.port || 5432) };
}

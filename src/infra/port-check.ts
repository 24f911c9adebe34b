import { createServer } from 'node:net';

/** The port `ferry serve` was told to listen on is taken by another process. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is already in use: is another Ferry running? Set PORT.`);
  }
}

/**
 * Fails with PortInUseError when `port` on `host` cannot be listened on now, by listening and
 * closing at once: `ferry serve` checks before it creates DATA_DIR, a database or a key. Port 0
 * (any free port) always passes. Another process may still take the port before the real listen,
 * which then fails the same way.
 */
export async function ensurePortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(port, host) : err),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

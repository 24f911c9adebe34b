import { createServer } from 'node:net';

/** A loopback port free a moment ago (the system's pick), for a process the test starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * A loopback URL that refuses connections: port 2, where nothing listens here or in CI. It is
 * below the ports the system hands out to a server listening on port 0, and fetch does not block
 * it (it blocks 1, 7, 9, …). A port freed by closing a server can be taken again by another test's
 * server, running at the same time, before the connection is tried, which then answers instead.
 */
export const REFUSED_URL = 'http://127.0.0.1:2';

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { describe, it } from 'node:test';
import { ensurePortFree, PortInUseError } from '../../src/infra/port-check.ts';

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('ensurePortFree', () => {
  it('refuses a port another process listens on, naming it', async () => {
    const occupier = createServer();
    const port = await listen(occupier, 0);
    try {
      await assert.rejects(ensurePortFree(port, '127.0.0.1'), (err: unknown) => {
        assert.ok(err instanceof PortInUseError);
        assert.equal(
          err.message,
          `port ${port} on 127.0.0.1 is already in use: is another Ferry running? Set PORT.`,
        );
        return true;
      });
    } finally {
      await close(occupier);
    }
  });

  it('passes a free port and leaves it free', async () => {
    const probe = createServer();
    const port = await listen(probe, 0);
    await close(probe);
    await ensurePortFree(port, '127.0.0.1');
    const after = createServer();
    assert.equal(await listen(after, port), port);
    await close(after);
  });

  it('passes port 0 (any free port) without listening', async () => {
    await ensurePortFree(0, '127.0.0.1');
  });
});

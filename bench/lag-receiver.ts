/**
 * The lag probe's webhook receiver (bench/lag-probe.ts), a process of its own: under a bulk push
 * the machine's cores are busy, and a receiver sharing the bench's process (its feed reader, its
 * samplers) would measure its own queue as the service's lag. A real receiver has a machine of
 * its own; the probe raises this process's main thread's priority where it may, to stand in for
 * that.
 *
 * Tells its parent the port it listens on, then every 50 ms the events received meanwhile, each
 * with when (Date.now(), as the parent's feed reader times what it sees). On 'stop' it sends
 * what is left with `done`, then closes and exits; it exits too when its parent goes (the
 * channel closes), so a bench that dies leaves no receiver behind.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let got: [string, number][] = [];
let posts = 0;

const receiver = createServer((req, res) => {
  const id = String(req.headers['ferry-event-id'] ?? '');
  req.resume().on('end', () => {
    posts++;
    got.push([id, Date.now()]);
    res.writeHead(204).end();
  });
});
// The senders keep many connections open: none may wait for the default backlog.
receiver.maxConnections = 4_096;
receiver.listen({ port: 0, host: '127.0.0.1', backlog: 4_096 }, () =>
  process.send?.({ port: (receiver.address() as AddressInfo).port }),
);
const timer = setInterval(() => {
  if (got.length === 0) return;
  process.send?.({ got, posts });
  got = [];
}, 50);
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  receiver.closeAllConnections();
  receiver.close();
  // Disconnecting only once the last batch is written: a disconnect drops what is still queued.
  process.send?.({ got, posts, done: true }, () => process.disconnect());
});

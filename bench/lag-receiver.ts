/**
 * The lag probe's webhook receiver (bench/lag-probe.ts), a process of its own: under a bulk push
 * the machine's cores are busy, and a receiver sharing the bench's process (its feed reader, its
 * samplers) would measure its own queue as the service's lag. A real receiver has a machine of
 * its own; the probe raises this process's priority where it may, to stand in for that.
 *
 * Tells its parent the port it listens on, then every 50 ms the events received meanwhile, each
 * with when (ms since the epoch, as performance.timeOrigin + now(): comparable across processes).
 * On 'stop' it sends what is left, closes and exits.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const send = (m: unknown) => process.send?.(m);
let got: [string, number][] = [];
let posts = 0;
const flush = () => {
  if (got.length > 0) send({ got, posts });
  got = [];
};

const receiver = createServer((req, res) => {
  const id = String(req.headers['ferry-event-id'] ?? '');
  req.resume().on('end', () => {
    posts++;
    got.push([id, performance.timeOrigin + performance.now()]);
    res.writeHead(204).end();
  });
});
// The senders keep many connections open: none may wait for the default backlog.
receiver.maxConnections = 4_096;
receiver.listen({ port: 0, host: '127.0.0.1', backlog: 4_096 }, () =>
  send({ port: (receiver.address() as AddressInfo).port }),
);
const timer = setInterval(flush, 50);
process.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  receiver.closeAllConnections();
  receiver.close();
  flush();
  process.disconnect();
});

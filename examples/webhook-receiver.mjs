// A Ferry webhook receiver: checks each delivery's signature, answers 204, handles each event once.
// FERRY_WEBHOOK_SECRET=<the secret `ferry webhook add` printed> PORT=9000 node examples/webhook-receiver.mjs
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.FERRY_WEBHOOK_SECRET;
const seen = new Set(); // use your database in earnest: deliveries are at least once

/** True when `Ferry-Signature: t=<unix seconds>,v1=<hex>` signs "<t>.<body>" and is under 5 minutes old. */
function signed(header = '', body) {
  const { t, v1 = '' } = Object.fromEntries(header.split(',').map((part) => part.split('=')));
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  const given = Buffer.from(v1, 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(t)) < 300;
  return fresh && given.length === expected.length && timingSafeEqual(given, expected);
}

createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (!signed(req.headers['ferry-signature'], body)) return res.writeHead(400).end();
    const event = JSON.parse(body);
    if (!seen.has(event.id)) {
      seen.add(event.id);
      console.log(JSON.stringify({ id: event.id, type: event.type, account: event.external_account_number }));
    }
    res.writeHead(204).end();
  });
}).listen(Number(process.env.PORT ?? 9000), '127.0.0.1');

// scripts/container-test.sh's load on the API while it is told to stop: schedules the accounts of
// an NDJSON book one request each (POST /v2/data-import/accounts/, 16 at a time, keep-alive) and,
// once `--stop-after` of them are accepted, runs `--stop` (the script's `podman kill --signal TERM`)
// without pausing the requests. It goes on until the API refuses connections, then prints JSON:
// the accepted accounts' external numbers, how many requests were answered after the signal had
// been delivered (they were in flight: started before `--stop` returned), and how the rest ended.
// Plain Node (fetch), no dependencies: it runs on the host, outside the image.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    'api-key': { type: 'string' },
    book: { type: 'string' },
    'stop-after': { type: 'string', default: '40' },
    stop: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
  },
});
const base = values.url.replace(/\/+$/, '');
const lines = readFileSync(values.book, 'utf8').split('\n').filter(Boolean);

const tokenReply = await fetch(`${base}/v1/graphql/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    query: `mutation { obtainToken(input: {APIKey: ${JSON.stringify(values['api-key'])}}) { token } }`,
  }),
});
const token = (await tokenReply.json()).data.obtainToken.token;

const accepted = [];
const statuses = {};
const errors = {};
let signalledAt = null; // when `--stop` returned: the signal had been delivered by then
let answeredInFlight = 0;
let next = 0;

function stopService() {
  const [cmd, ...args] = values.stop.split(' ');
  execFile(cmd, args, (err) => {
    if (err) console.error(`container-test-load: ${values.stop}: ${err.message}`);
    signalledAt = performance.now();
  });
}

async function lane() {
  while (next < lines.length) {
    const payload = JSON.parse(lines[next++]);
    const started = performance.now();
    let status;
    try {
      const reply = await fetch(`${base}/v2/data-import/accounts/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
        body: JSON.stringify({ payload, task_params: { is_dry_run: false } }),
      });
      await reply.arrayBuffer();
      status = reply.status;
    } catch (err) {
      const code = err.cause?.code ?? err.code ?? err.message;
      errors[code] = (errors[code] ?? 0) + 1;
      return; // the service is going away: this lane stops
    }
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (signalledAt !== null && started < signalledAt) answeredInFlight++;
    if (status === 201) {
      accepted.push(payload.external_account_number);
      if (accepted.length === Number(values['stop-after'])) stopService();
    } else if (signalledAt === null) {
      throw new Error(`container-test-load: ${status} before the signal`);
    }
  }
}

await Promise.all(Array.from({ length: Number(values.concurrency) }, lane));
process.stdout.write(
  `${JSON.stringify({ accepted, answeredInFlight, statuses, errors, signalled: signalledAt !== null, unsent: lines.length - next })}\n`,
);

// scripts/container-test.sh's load on the API while it is told to stop: schedules the accounts of
// an NDJSON book one request each (POST /v2/data-import/accounts/, 16 at a time, keep-alive) and,
// once `--stop-after` of them are accepted, runs `--stop` (the script's `podman kill --signal TERM`)
// without pausing the requests. It goes on until the API refuses connections, then prints JSON:
// the accepted accounts' external numbers, when each answered request started and was answered
// and its status (epoch milliseconds, so the caller can set them against the time the API logged
// the signal: `--stop` returns some time after the signal is delivered, so this script cannot
// tell what was in flight, nor whether an answer other than 201 came before the signal), and how
// the rest ended.
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
const answered = []; // [started, answered, status], times in epoch milliseconds, one a request answered
const now = () => performance.timeOrigin + performance.now();
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
    const started = now();
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
    answered.push([started, now(), status]);
    if (status === 201) {
      accepted.push(payload.external_account_number);
      if (accepted.length === Number(values['stop-after'])) stopService();
    }
  }
}

await Promise.all(Array.from({ length: Number(values.concurrency) }, lane));
process.stdout.write(
  `${JSON.stringify({ accepted, answered, statuses, errors, signalled: signalledAt !== null, unsent: lines.length - next })}\n`,
);

/**
 * Held welcome e-mails (decision 0070) are their own state wherever the operator looks: the
 * outbox API, the dashboard overview and /metrics count them as HELD, never as PENDING e-mails
 * waiting to go out, so a wave waiting for approval does not look like a mail outage. Once the
 * wave is approved they are PENDING like any other.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession } from '../../helpers/dashboard.ts';
import { admin, adminHeaders, createTestApp, type TestApp } from '../../helpers/test-app.ts';
import { importWaves } from '../../helpers/wave-setup.ts';

const SUPPLIER = 'HELDMAIL';
const WAVE = '2026-12-w1';

interface OutboxView {
  counts: Record<string, number>;
  retrying: number;
  held: { supplier: string; wave: string; emails: number }[];
}

describe('held welcome e-mails', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    await importWaves(t, SUPPLIER, { [WAVE]: 3, 'W-2': 2 });
  });
  after(() => t?.close());

  const metricLines = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: adminHeaders });
    assert.equal(res.statusCode, 200);
    return res.body.split('\n').filter((l) => l.startsWith('ferry_email_outbox{'));
  };

  it('are HELD, not PENDING, in the outbox API, with the waves that hold them', async () => {
    const outbox = await admin<OutboxView>(t.app, 'GET', '/email-outbox/');
    assert.deepEqual(outbox.counts, { HELD: 5, PENDING: 0, SENDING: 0, SENT: 0, FAILED: 0 });
    assert.equal(outbox.retrying, 0);
    assert.deepEqual(outbox.held, [
      { supplier: SUPPLIER, wave: '2026-12-w1', emails: 3 },
      { supplier: SUPPLIER, wave: 'W-2', emails: 2 },
    ]);
    // `failures` is read from the query's text: 0 to 1000.
    assert.equal((await admin<OutboxView>(t.app, 'GET', '/email-outbox/?failures=0')).counts.HELD, 5);
    const tooMany = await admin<{ code: string }>(
      t.app,
      'GET',
      '/email-outbox/?failures=1001',
      undefined,
      400,
    );
    assert.equal(tooMany.code, 'validation_error');
  });

  it('are held for wave approval on the dashboard overview, not waiting', async () => {
    const s = await dashboardSession(t.app);
    const res = await s.get('/dashboard/');
    assert.equal(res.statusCode, 200);
    const section = res.body.slice(res.body.indexOf('id="outbox"'));
    assert.match(section, /Sent 0 · held for wave approval 5 · waiting 0 \(retrying 0\)/);
    assert.match(
      section,
      /<p data-field="held">[^<]*<a href="\/dashboard\/suppliers\/HELDMAIL\/waves\/2026-12-w1\/">HELDMAIL 2026-12-w1<\/a> 3, <a href="\/dashboard\/suppliers\/HELDMAIL\/waves\/W-2\/">HELDMAIL W-2<\/a> 2<\/p>/,
    );
  });

  it('are counted as HELD by ferry_email_outbox on /metrics', async () => {
    assert.deepEqual(await metricLines(), [
      'ferry_email_outbox{state="HELD"} 5',
      'ferry_email_outbox{state="PENDING"} 0',
      'ferry_email_outbox{state="SENDING"} 0',
      'ferry_email_outbox{state="FAILED"} 0',
    ]);
  });

  it('are PENDING once their wave is approved, everywhere', async () => {
    await admin(t.app, 'POST', `/waves/${SUPPLIER}/${WAVE}/approve/`, { force: true }, 200);
    const outbox = await admin<OutboxView>(t.app, 'GET', '/email-outbox/');
    assert.deepEqual(outbox.counts, { HELD: 2, PENDING: 3, SENDING: 0, SENT: 0, FAILED: 0 });
    assert.deepEqual(outbox.held, [{ supplier: SUPPLIER, wave: 'W-2', emails: 2 }]);
    const s = await dashboardSession(t.app);
    assert.match((await s.get('/dashboard/')).body, /Sent 0 · held for wave approval 2 · waiting 3 /);
    const lines = await metricLines();
    assert.ok(lines.includes('ferry_email_outbox{state="HELD"} 2'), lines.join('\n'));
    assert.ok(lines.includes('ferry_email_outbox{state="PENDING"} 3'), lines.join('\n'));
  });
});

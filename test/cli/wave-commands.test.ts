import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runAdminCommand } from '../../src/cli/admin-commands.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { listeningTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { scheduleInWave } from '../helpers/waves.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const SUPPLIER = 'CLI_WAVES';

/** `ferry wave approve|rollback` against the real API on a socket. */
describe('ferry wave approve / rollback', () => {
  let t: TestApp;
  let env: Record<string, string>;
  before(async () => {
    ({ t, env } = await listeningTestApp());
    const { headers } = await tokenFor(t.app, [SUPPLIER]);
    await scheduleInWave(t.app, headers, [accountFor(SUPPLIER, 1), accountFor(SUPPLIER, 2)], 'W1');
    await scheduleInWave(t.app, headers, [accountFor(SUPPLIER, 3)], 'W2');
    await runWorkerUntilIdle(t.config, t.db);
  });
  after(() => t.close());

  async function run(cmd: string, flags: Record<string, string | boolean> = {}, answer = '') {
    const [group, ...args] = cmd.split(' ');
    const lines: string[] = [];
    const asked: string[] = [];
    const ask = async (q: string) => {
      asked.push(q);
      return answer;
    };
    const code = await runAdminCommand(group, args, flags, {
      out: (s) => lines.push(s),
      json: false,
      env,
      ask,
    });
    return { code, text: lines.join('\n'), asked };
  }
  const accounts = async () =>
    (await t.db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM accounts'))).rows[0].n;

  it('rolls back only when the wave’s name is typed back', async () => {
    const wrong = await run(`wave rollback ${SUPPLIER} W1`, {}, 'W2');
    assert.equal(wrong.code, 1);
    assert.match(wrong.asked[0], /Type the wave's name \(W1\)/);
    assert.equal(await accounts(), 3);
    const done = await run(`wave rollback ${SUPPLIER} W1`, {}, 'W1\n');
    assert.equal(done.code, 0);
    assert.match(done.text, /Rolled back wave W1 of CLI_WAVES: 2 processes CANCELLED, 2 accounts deleted/);
    assert.equal(await accounts(), 1);
  });

  it('--yes does not ask', async () => {
    const done = await run(`wave rollback ${SUPPLIER} EMPTY`, { yes: true });
    assert.equal(done.code, 0);
    assert.deepEqual(done.asked, []);
  });

  it('approves only a wave that reconciles, unless --force; approval is final', async () => {
    await assert.rejects(run(`wave approve ${SUPPLIER} W2`), /409 reconciliation_differences/);
    const forced = await run(`wave approve ${SUPPLIER} W2`, { force: true });
    assert.equal(forced.code, 0);
    assert.match(forced.text, /Approved wave W2 of CLI_WAVES \(forced past the differences\)/);
    await assert.rejects(run(`wave approve ${SUPPLIER} W2`), /409 wave_approved/);
    await assert.rejects(run(`wave rollback ${SUPPLIER} W2`, { yes: true }), /409 wave_approved/);
  });

  it('records the name given with --by as the approver', async () => {
    const approved = await run(`wave approve ${SUPPLIER} EMPTY`, { force: true, by: 'Dana Ortiz' });
    assert.equal(approved.code, 0);
    assert.match(approved.text, /approved_by\s+Dana Ortiz/);
    const { rows } = await t.db.query<{ approved_by: string }>(
      sql('', "SELECT approved_by FROM waves WHERE import_supplier = $1 AND wave = 'EMPTY'"),
      [SUPPLIER],
    );
    assert.equal(rows[0].approved_by, 'Dana Ortiz');
  });

  it('answers usage errors with exit code 2, a bad wave name before any call', async () => {
    assert.equal((await run(`wave approve ${SUPPLIER}`)).code, 2);
    // No server answers on this URL: a usage error proves nothing was sent.
    for (const cmd of [`wave approve ${SUPPLIER} ..`, `wave rollback ${SUPPLIER} a%20b`]) {
      const lines: string[] = [];
      const code = await runAdminCommand(
        cmd.split(' ')[0],
        cmd.split(' ').slice(1),
        { yes: true },
        {
          out: (s) => lines.push(s),
          json: false,
          env: { ...env, FERRY_URL: 'http://127.0.0.1:9' },
        },
      );
      assert.equal(code, 2, cmd);
    }
    assert.equal((await run(`wave approve ${SUPPLIER} W3`, { by: '  ' })).code, 2);
    assert.equal((await run('wave frobnicate')).code, 2);
  });
});

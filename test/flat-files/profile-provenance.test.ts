/**
 * Provenance (issue 39 item 5): `ferry push accounts --profile` sends the mapping profile's name
 * and version with every account it schedules (task_params.mapping_profile); each process records
 * them, and the admin process view, the operator exports (CSV and NDJSON), the dashboard's process
 * page and its wave page show them. A wrong mapping_profile is a 400 with a stable code and attr;
 * a re-schedule replaces it like the wave.
 */
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dashboardSession } from '../helpers/dashboard.ts';
import { push, readNdjson, serviceForPush } from '../helpers/push-run.ts';
import { admin, adminHeaders, tokenFor } from '../helpers/test-app.ts';

const EXAMPLE = new URL('../../examples/legacy-export/', import.meta.url).pathname;
const SUPPLIER = 'MERIDIAN';
const WAVE = 'legacy-1';
const PROFILE = { name: 'meridian-legacy', version: 1 };

describe('provenance: each process records the mapping profile that built it', () => {
  let service: Awaited<ReturnType<typeof serviceForPush>>;
  let apiKey: string;
  let headers: Record<string, string>;
  /** The first account of the mapped book: a valid payload to schedule by hand. */
  let account: Record<string, unknown>;

  before(async () => {
    service = await serviceForPush('ferry-provenance-');
    ({ apiKey, headers } = await tokenFor(service.t.app, [SUPPLIER]));
    const dir = join(service.dir, 'export');
    cpSync(EXAMPLE, dir, { recursive: true });
    const run = await push([
      join(dir, 'book.ndjson'),
      '--profile',
      join(dir, 'profile.yaml'),
      '--wave',
      WAVE,
      '--url',
      service.baseUrl,
      '--api-key',
      apiKey,
    ]);
    assert.equal(run.code, 0, `${run.out}\n${run.err}`);
    account = readNdjson(join(dir, 'book.ndjson'))[0];
  });
  after(() => service?.close());

  /** The book's first account under another number, without its meter points (held by the first). */
  const another = (external: string): Record<string, unknown> => {
    const { supply_addresses: _held, ...rest } = account;
    return { ...rest, external_account_number: external };
  };
  const detail = (external: string) =>
    admin<{ mapping_profile: unknown; status: string }>(
      service.t.app,
      'GET',
      `/import-processes/${SUPPLIER}/${external}/`,
    );
  const create = (taskParams: Record<string, unknown>, payload: Record<string, unknown> = account) =>
    service.t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: { payload, task_params: taskParams },
    });

  it('records the name and version on every process the push scheduled; the admin view shows them', async () => {
    for (const external of ['100001', '100002', '100003']) {
      const d = await detail(external);
      assert.equal(d.status, 'PROCESSED');
      assert.deepEqual(d.mapping_profile, PROFILE, external);
    }
  });

  it('the exports carry it: a field of each NDJSON item, two columns of the CSV', async () => {
    const ndjson = await service.t.app.inject({
      method: 'GET',
      url: `/admin/v1/import-processes/export/?supplier=${SUPPLIER}`,
      headers: adminHeaders,
    });
    const items = ndjson.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      items.map((i) => [i.external_account_number, i.mapping_profile]),
      [
        ['100001', PROFILE],
        ['100002', PROFILE],
        ['100003', PROFILE],
      ],
    );
    const page = await admin<{ results: { mapping_profile: unknown }[] }>(
      service.t.app,
      'GET',
      `/import-processes/?supplier=${SUPPLIER}`,
    );
    assert.deepEqual(
      page.results.map((r) => r.mapping_profile),
      [PROFILE, PROFILE, PROFILE],
    );
    const csv = await service.t.app.inject({
      method: 'GET',
      url: `/admin/v1/import-processes/export/?supplier=${SUPPLIER}&format=csv`,
      headers: adminHeaders,
    });
    const [head, first] = csv.body.split('\r\n');
    assert.match(head, /,mapping_profile,mapping_profile_version$/);
    assert.match(first, /^MERIDIAN,100001,PROCESSED,.*,meridian-legacy,1$/);
  });

  it("shows it on the dashboard's process page and, with counts per version, on the wave page", async () => {
    const s = await dashboardSession(service.t.app);
    const processPage = await s.get(`/dashboard/processes/${SUPPLIER}/100002/`);
    assert.equal(processPage.statusCode, 200);
    assert.match(processPage.body, /data-field="mapping-profile">meridian-legacy version 1</);
    // One account of the wave re-scheduled by version 2, due tomorrow so that it waits PENDING.
    const other = another('100009');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const res = await create(
      { wave: WAVE, schedule_window_start: tomorrow, mapping_profile: { ...PROFILE, version: 2 } },
      other,
    );
    assert.equal(res.statusCode, 201, res.body);
    const wavePage = await s.get(`/dashboard/suppliers/${SUPPLIER}/waves/${WAVE}/`);
    assert.equal(wavePage.statusCode, 200);
    const section = wavePage.body.slice(wavePage.body.indexOf('id="profiles"'));
    assert.match(
      section,
      /<tr data-profile="meridian-legacy@1"><th scope="row">meridian-legacy<\/th><td class="num">1<\/td><td class="num" data-count="processes">3<\/td><\/tr>/,
    );
    assert.match(section, /<tr data-profile="meridian-legacy@2">.*data-count="processes">1</);
  });

  it('a re-schedule replaces it, as it replaces the wave: absent means none, another version is a change', async () => {
    const other = another('100010');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const window = { schedule_window_start: tomorrow };
    assert.equal((await create({ ...window, mapping_profile: PROFILE }, other)).statusCode, 201);
    assert.deepEqual((await detail('100010')).mapping_profile, PROFILE);
    // The same again changes nothing; another version is a re-schedule that records it.
    assert.equal((await create({ ...window, mapping_profile: PROFILE }, other)).statusCode, 201);
    await create({ ...window, mapping_profile: { ...PROFILE, version: 3 } }, other);
    assert.deepEqual((await detail('100010')).mapping_profile, { ...PROFILE, version: 3 });
    await create(window, other);
    assert.equal((await detail('100010')).mapping_profile, null);
  });

  it('bulk lines take it as the create endpoint does: each line recorded or refused on its own', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const line = (external: string, mapping_profile: unknown) => {
      const payload = another(external);
      return JSON.stringify({ payload, task_params: { schedule_window_start: tomorrow, mapping_profile } });
    };
    const res = await service.t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/bulk/',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      payload: [line('100020', { ...PROFILE, version: 4 }), line('100021', { name: 'p', version: -1 })].join(
        '\n',
      ),
    });
    assert.equal(res.statusCode, 200, res.body);
    const [ok, refused] = res.json().results;
    assert.equal(ok.status, 201, JSON.stringify(ok));
    assert.equal(refused.status, 400);
    assert.deepEqual(
      refused.body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code]),
      [['task_params.mapping_profile.version', 'min_value']],
    );
    assert.deepEqual((await detail('100020')).mapping_profile, { ...PROFILE, version: 4 });
  });

  it('refuses a wrong mapping_profile with 400, a stable code at its attr, and schedules nothing', async () => {
    const cases: [unknown, string, string][] = [
      [{ name: 'bad name', version: 1 }, 'task_params.mapping_profile.name', 'invalid_mapping_profile_name'],
      [{ name: '-x', version: 1 }, 'task_params.mapping_profile.name', 'invalid_mapping_profile_name'],
      [{ name: 'p'.repeat(65), version: 1 }, 'task_params.mapping_profile.name', 'max_length'],
      [{ name: '', version: 1 }, 'task_params.mapping_profile.name', 'blank'],
      [{ name: 'p', version: 0 }, 'task_params.mapping_profile.version', 'min_value'],
      [{ name: 'p', version: 1.5 }, 'task_params.mapping_profile.version', 'invalid'],
      [{ name: 'p', version: '1' }, 'task_params.mapping_profile.version', 'invalid'],
      [{ name: 'p' }, 'task_params.mapping_profile.version', 'required'],
      [{ name: 'p', version: 1, author: 'x' }, 'task_params.mapping_profile.author', 'unknown_field'],
      ['meridian-legacy', 'task_params.mapping_profile', 'invalid'],
    ];
    const other = another('100011');
    for (const [mapping_profile, attr, code] of cases) {
      const res = await create({ mapping_profile }, other);
      assert.equal(res.statusCode, 400, `${JSON.stringify(mapping_profile)}: ${res.body}`);
      const body = res.json();
      assert.equal(body.code, 'import_process_failed_validation');
      assert.deepEqual(
        body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code]),
        [[attr, code]],
        JSON.stringify(mapping_profile),
      );
    }
    const missing = await service.t.app.inject({
      method: 'GET',
      url: `/admin/v1/import-processes/${SUPPLIER}/100011/`,
      headers: adminHeaders,
    });
    assert.equal(missing.statusCode, 404);
  });
});

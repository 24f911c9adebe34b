// The floor plan of src/ (issue 11) as dependency-cruiser rules, checked by `npm run lint:layers` in CI.
// A layer may import the layers below it, never one above it nor a sibling on its own floor
// (auth and suppliers; account-import and follow-ups). Type-only imports count too: they couple
// the code just as much. An import of a file in src/ that lies outside every layer is reported as
// well, so that a new room has to be placed on the plan before anything uses it.

/** Lowest floor first; `rank` orders them, a path regex says what belongs to each. */
const LAYERS = [
  { name: 'vocabulary', rank: 0, path: '^src/vocabulary/' },
  { name: 'infra', rank: 1, path: '^src/(infra/|config[.]ts$)' },
  { name: 'errors', rank: 2, path: '^src/errors/' },
  { name: 'validation', rank: 3, path: '^src/validation/' },
  { name: 'http', rank: 4, path: '^src/http/' },
  { name: 'auth', rank: 5, path: '^src/auth/' },
  { name: 'suppliers', rank: 5, path: '^src/suppliers/' },
  // Reference data the account checks consult (the catalogue and code lists); its routes are in api/.
  { name: 'catalogue', rank: 5, path: '^src/catalogue/' },
  { name: 'accounts', rank: 6, path: '^src/accounts/' },
  { name: 'events', rank: 6, path: '^src/events/' },
  { name: 'account-import', rank: 7, path: '^src/account-import/' },
  { name: 'follow-ups', rank: 7, path: '^src/follow-ups/' },
  // CSV files + a mapping profile → account payloads and follow-up bodies: a library the CLI uses;
  // reads the schemas of the payload and of the follow-up bodies (so it sits above follow-ups).
  { name: 'flat-files', rank: 8, path: '^src/flat-files/' },
  { name: 'api', rank: 8, path: '^src/api/' },
  { name: 'dashboard', rank: 8, path: '^src/dashboard/' },
  { name: 'composition', rank: 9, path: '^src/((app|server|worker-process)[.]ts$|cli/|client/)' },
];

const anyOf = (layers) => layers.map((layer) => `(${layer.path})`).join('|');

const TOP = Math.max(...LAYERS.map((layer) => layer.rank));
const layerRules = LAYERS.filter((layer) => layer.rank < TOP).map((layer) => {
  const above = LAYERS.filter((other) => other !== layer && other.rank >= layer.rank);
  return {
    name: `${layer.name}-imports-only-lower-layers`,
    comment: `${layer.name} (floor ${layer.rank}) may not import ${above.map((other) => other.name).join(', ')}`,
    severity: 'error',
    from: { path: layer.path },
    to: { path: anyOf(above) },
  };
});

/**
 * The domain rooms are used from a worker, the CLI and tests as well as from routes, so they never
 * speak HTTP: their routes live in `api/`, and what they share with routes (error codes and items,
 * the validation engine) lies on the floors below `http/`.
 */
const domainRules = [
  {
    name: 'domain-rooms-never-import-http',
    comment: 'accounts/ and follow-ups/ may not import http/ (their routes live in api/)',
    severity: 'error',
    from: { path: '^src/(accounts|follow-ups)/' },
    to: { path: '^src/http/' },
  },
];

module.exports = {
  forbidden: [
    ...layerRules,
    ...domainRules,
    {
      name: 'outside-the-floor-plan',
      comment: 'every module in src/ belongs to one layer of the floor plan (.dependency-cruiser.cjs)',
      severity: 'error',
      // An unplaced folder importing its own files is left out: the imports of it say enough.
      from: { path: '^(src/[^/]+)' },
      to: { path: '^src/', pathNot: `${anyOf(LAYERS)}|^$1(/|$)` },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that does not resolve to a file',
      severity: 'error',
      from: {},
      // tsx is loaded by `ferry dev` alone, and only when the dev dependencies are installed.
      to: { couldNotResolve: true, pathNot: '^tsx/esm/api$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^generated/|^src/infra/db/migrations/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

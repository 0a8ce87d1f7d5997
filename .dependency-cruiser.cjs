/**
 * The rooms of docs/architecture.md ("Rooms and the arrows between them") as rules, so a
 * forbidden import fails CI. src/cli (the command line) may use any room but the renderer, and
 * the two shells (main/web, main/shell) may start src/sim in-process as the Demo network. Inside
 * src/main/core, the layers below ("The core in layers") do the same for its folders and files.
 */

/**
 * src/main/core in layers, bottom first: [name, its job, its rooms]. A room is a folder of the
 * core (`client` is `client/`) or a loose file (`wait` is `wait.ts`). A room may import its own
 * modules and the rooms of the layers below its own: never a room of its own layer nor one above,
 * type-only imports included. So each pair of rooms has one direction, and a new import that
 * climbs a layer fails `npm run deps` (tests/unit/core/layers.test.ts shows the rules bite).
 */
const CORE_LAYERS = [
  ['events', 'the event bus and the facts it carries; needs nothing of the core', ['events']],
  ['base', 'needs only the event bus', ['wait', 'safety-net', 'push-hub', 'tray-state', 'budget']],
  ['io', 'the service client and the store', ['client', 'store']],
  ['state', 'the settings and the watch list', ['settings', 'watch-registry']],
  ['links', 'the service as the settings point at it; the channels', ['service-link', 'notify']],
  ['alerts', 'the rules that make alert records, handed to notify', ['alerts']],
  ['risk', 'prices, valuation, the read schedule; hands alerts its verdicts', ['risk']],
  ['credits', 'the meter, and the plan that steers the risk reads', ['credits']],
  [
    'digest',
    'the daily digest: the kept valuation, the risk history, the alerts and the credits, in words',
    ['digest'],
  ],
  ['streams', 'the streams; a committed batch goes to alerts, risk and credits', ['streams']],
  ['contract', 'the contract handlers and the status', ['contract', 'status-reporter', 'monitor-options']],
  ['monitor', 'builds and wires every room', ['monitor']],
];

const CORE = '^src/main/core/';
/** A regular expression of these rooms; its one group is the room's name. */
const roomsPattern = (rooms) => `${CORE}(${rooms.join('|')})(?:/|\\.ts$)`;

const coreLayerRules = CORE_LAYERS.map(([layer, job, rooms], i) => {
  const below = CORE_LAYERS.slice(0, i).flatMap(([, , r]) => r);
  return {
    name: `core-layer-${layer}`,
    comment: `Core layer ${i + 1} of ${CORE_LAYERS.length}, ${layer} (${job}): ${rooms.join(', ')} may import ${below.length > 0 ? below.join(', ') : 'nothing of the core'}; never another room of its layer or one above.`,
    severity: 'error',
    from: { path: roomsPattern(rooms) },
    to: {
      path: CORE,
      pathNot: [`${CORE}$1(?:/|\\.ts$)`, ...(below.length > 0 ? [roomsPattern(below)] : [])],
    },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...coreLayerRules,
    {
      name: 'core-room-in-a-layer',
      comment:
        'Every folder and loose file of src/main/core is in one of CORE_LAYERS: give a new one its layer before it imports anything.',
      severity: 'error',
      from: { path: CORE, pathNot: roomsPattern(CORE_LAYERS.flatMap(([, , r]) => r)) },
      to: {},
    },
    {
      name: 'shared-is-self-contained',
      comment: 'src/shared holds wire types, schemas and units: nothing outside itself, no node built-ins.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: ['^src/shared/', '^node_modules/valibot/'] },
    },
    {
      name: 'core-never-imports-electron-or-shells',
      comment: 'main/core is plain Node: never electron, never the shells, the renderer or the sim.',
      severity: 'error',
      from: { path: '^src/main/core/' },
      to: {
        path: [
          '^node_modules/electron/',
          '^src/main/shell/',
          '^src/main/web/',
          '^src/main/index\\.ts$',
          '^src/renderer/',
          '^src/sim/',
          '^src/preload/',
          '^src/cli/',
        ],
      },
    },
    {
      name: 'no-electron-outside-shell-and-preload',
      comment: 'Only src/main/shell, src/main/index.ts and src/preload may import electron.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/main/shell/', '^src/main/index\\.ts$', '^src/preload/'] },
      to: { path: '^node_modules/electron/' },
    },
    {
      name: 'web-shell-room',
      comment: 'main/web may import core, shared and the sim (to host the Demo network).',
      severity: 'error',
      from: { path: '^src/main/web/' },
      to: { path: ['^src/main/shell/', '^src/main/index\\.ts$', '^src/renderer/', '^src/preload/', '^src/cli/'] },
    },
    {
      name: 'electron-shell-room',
      comment: 'main/shell may import core, shared, the sim and electron; not the web shell or the renderer.',
      severity: 'error',
      from: { path: ['^src/main/shell/', '^src/main/index\\.ts$'] },
      to: { path: ['^src/main/web/', '^src/renderer/', '^src/preload/', '^src/cli/'] },
    },
    {
      name: 'preload-room',
      comment: 'The preload exposes the contract only: shared and electron.',
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { path: '^src/', pathNot: ['^src/shared/', '^src/preload/'] },
    },
    {
      name: 'renderer-room',
      comment: 'The renderer talks to main only through TidewatchApi: shared and its own files.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: '^src/', pathNot: ['^src/shared/', '^src/renderer/'] },
    },
    {
      name: 'renderer-no-node',
      comment: 'The renderer is a web page: no node built-ins.',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'sim-room',
      comment: 'The reference service depends on the wire types only: never main or renderer.',
      severity: 'error',
      from: { path: '^src/sim/' },
      to: { path: '^src/', pathNot: ['^src/sim/', '^src/shared/'] },
    },
    {
      name: 'cli-room',
      comment: 'The command line may start anything headless, never the renderer or electron.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: {
        path: [
          '^src/renderer/',
          '^src/main/shell/',
          '^src/main/index\\.ts$',
          '^src/preload/',
          '^node_modules/electron/',
        ],
      },
    },
    {
      name: 'headless-runs-on-dependencies',
      comment:
        'What `tidewatch` runs (cli, core, web shell, sim, shared) must work after `npm install --omit=dev`: no devDependency at run time (type-only imports vanish).',
      severity: 'error',
      from: { path: '^(src/(cli|main/core|main/web|sim|shared)/|bin/)' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment:
        'No cycle at all, type-only imports included: a cycle means two modules are one, or one is in the wrong room.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^out/', '^dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.vue', '.json'],
    },
  },
};

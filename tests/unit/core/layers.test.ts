import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;
const forbidden = config.forbidden ?? [];
const layerRules = forbidden.filter((r) => r.name?.startsWith('core-layer-'));

/** Every folder and loose file of src/main/core, as a path of a module in it. */
const coreRooms = readdirSync(join(ROOT, 'src/main/core'), { withFileTypes: true }).map((e) =>
  e.isDirectory() ? `src/main/core/${e.name}/a.ts` : `src/main/core/${e.name}`,
);
const fromPath = (rule: (typeof forbidden)[number]): RegExp => new RegExp(String(rule.from.path));

describe('the core in layers (.dependency-cruiser.cjs)', () => {
  it('puts every folder and loose file of src/main/core in exactly one layer', () => {
    expect(layerRules.length).toBeGreaterThan(5);
    expect(coreRooms.length).toBeGreaterThan(10);
    for (const room of coreRooms)
      expect(
        layerRules.filter((r) => fromPath(r).test(room)).map((r) => r.name),
        room,
      ).toHaveLength(1);
  });

  describe('on a small tree, every import that climbs a layer fails and none that goes down does', () => {
    let dir = '';
    let result: ICruiseResult;
    /** from -> its imports: a module of the fixture tree and what it imports (relative, as written). */
    const tree: Record<string, string[]> = {
      'src/main/core/client/http.ts': ["import { price } from '../risk/prices';"],
      'src/main/core/client/cache.ts': ["import type { Row } from '../store/rows';"],
      'src/main/core/store/rows.ts': ["import { sleep } from '../wait';"],
      'src/main/core/wait.ts': [],
      'src/main/core/risk/prices.ts': [
        "import { later } from './later';",
        "import type { Plan } from '../credits/plan';",
      ],
      'src/main/core/risk/later.ts': ["import { alert } from '../alerts/engine';"],
      'src/main/core/alerts/engine.ts': ["import type { Book } from '../risk/prices';"],
      'src/main/core/credits/plan.ts': [
        "import { price } from '../risk/prices';",
        "import { pace } from '../budget/pacer';",
      ],
      'src/main/core/budget/pacer.ts': [],
      'src/main/core/settings.ts': ["import { link } from './service-link';"],
      'src/main/core/service-link.ts': ["import { get } from './client/http';"],
      'src/main/core/monitor.ts': ["import { plan } from './credits/plan';", "import { link } from './service-link';"],
      'src/main/core/stray.ts': ["import { sleep } from './wait';"],
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tidewatch-layers-'));
      for (const [file, imports] of Object.entries(tree)) {
        mkdirSync(join(dir, dirname(file)), { recursive: true });
        writeFileSync(join(dir, file), `${imports.join('\n')}\nexport const here = 1;\n`);
      }
      const out = await cruise(
        ['src'],
        { baseDir: dir, validate: true, ruleSet: { forbidden }, tsPreCompilationDeps: true },
        { extensions: ['.ts'] },
      );
      result = out.output as ICruiseResult;
    }, 30_000);

    afterAll(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('names the rule of the layer each climbing import starts from', () => {
      const found = result.summary.violations
        .filter((v) => v.rule.name.startsWith('core-'))
        .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
        .sort();
      expect(found).toEqual(
        [
          // io climbs to risk; io's two rooms import each other neither way (a type-only import counts).
          'core-layer-io: src/main/core/client/http.ts -> src/main/core/risk/prices.ts',
          'core-layer-io: src/main/core/client/cache.ts -> src/main/core/store/rows.ts',
          // risk reads credits (the pair split by budget/), and alerts reads risk, by types alone.
          'core-layer-risk: src/main/core/risk/prices.ts -> src/main/core/credits/plan.ts',
          'core-layer-alerts: src/main/core/alerts/engine.ts -> src/main/core/risk/prices.ts',
          // settings under the service link that reads it.
          'core-layer-state: src/main/core/settings.ts -> src/main/core/service-link.ts',
          // A new loose file must be given a layer before it may import anything.
          'core-room-in-a-layer: src/main/core/stray.ts -> src/main/core/wait.ts',
        ].sort(),
      );
    });

    it('lets a room import itself and the layers below (store -> wait, risk -> alerts, monitor -> all)', () => {
      const allowed = result.modules
        .flatMap((m) => m.dependencies.map((d) => ({ from: m.source, to: d.resolved, rules: d.rules ?? [] })))
        .filter((d) => !d.rules.some((r) => r.name.startsWith('core-')));
      expect(allowed.map((d) => `${d.from} -> ${d.to}`)).toEqual(
        expect.arrayContaining([
          'src/main/core/store/rows.ts -> src/main/core/wait.ts',
          'src/main/core/risk/prices.ts -> src/main/core/risk/later.ts',
          'src/main/core/risk/later.ts -> src/main/core/alerts/engine.ts',
          'src/main/core/credits/plan.ts -> src/main/core/risk/prices.ts',
          'src/main/core/credits/plan.ts -> src/main/core/budget/pacer.ts',
          'src/main/core/service-link.ts -> src/main/core/client/http.ts',
          'src/main/core/monitor.ts -> src/main/core/credits/plan.ts',
          'src/main/core/monitor.ts -> src/main/core/service-link.ts',
        ]),
      );
    });
  });
});

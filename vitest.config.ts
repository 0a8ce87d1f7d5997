import vue from '@vitejs/plugin-vue';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The soak suite (`npm run test:soak`, run by CI after `npm test`): the long runs at production
 * timings. A 10-minute watch of the Demo network checking every view against the one valuation,
 * the blind alarm waiting out a 4-minute outage, an outage of the service, a crash of serve with
 * alerts in flight, and the streams' fault, history-gap and pool-resume runs (the last stays away
 * longer than a live trade can be late, 35 s). `npm test` runs everything else.
 */
export const SOAK_FILES = [
  'tests/e2e/valuation.test.ts',
  'tests/integration/serve/notify-blind.test.ts',
  'tests/integration/serve/outage.test.ts',
  'tests/integration/serve/notify-crash.test.ts',
  'tests/integration/core/streams/history-gap.test.ts',
  'tests/integration/core/streams/faults.test.ts',
  'tests/integration/core/streams/pool-resume.test.ts',
];

/** The soak's longest files first (the order above), so the two workers finish together. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = SOAK_FILES.findIndex((name) => f.moduleId.replaceAll('\\', '/').endsWith(name));
      return i < 0 ? SOAK_FILES.length : i;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

// Dates in tests are read in UTC, whatever the machine's zone.
process.env['TZ'] = 'UTC';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: [
      'tests/unit/**/*.test.ts',
      'tests/renderer/**/*.test.ts',
      'tests/shells/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/e2e/**/*.test.ts',
    ],
    exclude: [...configDefaults.exclude, ...SOAK_FILES],
    environment: 'node',
    setupFiles: ['./tests/support/fail-on-unhandled.ts', './tests/support/fast-check-seed.ts'],
    // The default already fails the run on unhandled errors; say so, it is a rule here.
    dangerouslyIgnoreUnhandledErrors: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Integration files each start a real sim; two cores run two files at a time.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});

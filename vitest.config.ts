import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files first: the 10-minute valuation run (tests/e2e/valuation.test.ts) starts at
 * once on one worker, the 6-minute blind alarm (tests/integration/serve/notify-blind.test.ts, mostly
 * waiting out a killed Demo network) and the 2-minute crash of serve (serve/notify-crash.test.ts) on
 * the other, and both then share the rest.
 */
const LONGEST = [
  /e2e[\\/]valuation\.test\.ts$/,
  /integration[\\/]serve[\\/]notify-blind\.test\.ts$/,
  /integration[\\/]serve[\\/]notify-crash\.test\.ts$/,
];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification): number => {
      const i = LONGEST.findIndex((re) => re.test(f.moduleId));
      return i < 0 ? LONGEST.length : i;
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
    environment: 'node',
    setupFiles: ['./tests/support/fail-on-unhandled.ts'],
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

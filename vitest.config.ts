import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest file first: the 10-minute valuation run (tests/e2e/valuation.test.ts) starts at once
 * on one worker while the other takes the rest, so the whole run is not 10 minutes longer.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification): boolean => /e2e[\\/]valuation\.test\.ts$/.test(f.moduleId);
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
  }
}

// Dates in tests are read in UTC, whatever the machine's zone.
process.env['TZ'] = 'UTC';

export default defineConfig({
  plugins: [vue()],
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/renderer/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/e2e/**/*.test.ts'],
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

import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

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
    reporters: ['default', './tests/support/summary-reporter.ts'],
  },
});

import { configDefaults, defineConfig } from 'vitest/config';
import base, { SOAK_FILES } from './vitest.config.ts';

/** `npm run test:soak`: the long runs at production timings (vitest.config.ts SOAK_FILES), longest first. */
export default defineConfig({
  ...base,
  test: { ...base.test, include: SOAK_FILES, exclude: configDefaults.exclude },
});

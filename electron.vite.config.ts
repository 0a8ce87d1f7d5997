import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The margin writer's thread is an entry of its own, built beside index.js (store/margin-writer.ts finds it there).
        input: {
          index: resolve('src/main/index.ts'),
          'margin-writer-thread': resolve('src/main/core/store/margin-writer-thread.ts'),
        },
        // better-sqlite3 loads its Node-API prebuild at run time: never bundle it.
        external: ['better-sqlite3'],
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload must be CommonJS.
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    // Minified: the same bundle is served to browsers by `tidewatch serve`.
    build: { minify: true, rollupOptions: { input: resolve('src/renderer/index.html') } },
    plugins: [vue()],
  },
});

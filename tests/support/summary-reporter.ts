import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `vitest: N passed, N failed, N skipped`, after the default
 * reporter's output, so CI logs state the count in a form any reader can take.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = []): void {
    let passed = 0;
    // Unhandled errors fail the run (vitest's exit code says so too): count them here as well.
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const m of testModules) {
      // An error outside any test (a hook, an import, an unhandled rejection) fails its file.
      if (
        m.errors().length > 0 ||
        (m.state() === 'failed' && [...m.children.allTests()].every((t) => t.result().state !== 'failed'))
      )
        failed++;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    console.log(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}

/**
 * Resolves once `promise` settles (either way) or after `ms`, whichever is first; the timer does
 * not keep the process alive. For a bounded wait: a thread or process asked to close, a first
 * read a stream waits for.
 */
export function settledOrAfter(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}

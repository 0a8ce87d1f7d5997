/**
 * Resolves once `promise` settles (either way) or after `ms`, whichever is first, with whether it
 * settled in time; the timer does not keep the process alive. For a bounded wait: a thread or
 * process asked to close, a first read a stream waits for.
 */
export function settledOrAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(done, done);
  });
}

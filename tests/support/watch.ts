/**
 * Resolves a wait once its condition holds, looked at again whenever a collaborator calls back
 * (`poke`): a test on fake timers waits for work in flight this way, never through the clock.
 */
export class Watch {
  private waiting: Array<{ check: () => boolean; done: () => void }> = [];
  readonly poke = (): void => {
    this.waiting = this.waiting.filter((w) => !(w.check() && (w.done(), true)));
  };
  when(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((done) => this.waiting.push({ check, done }));
  }
}

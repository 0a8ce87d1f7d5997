import { describe, expect, it } from 'vitest';
import { unlessAborted } from '../../../../src/main/core/client/abort';
import { ServiceError } from '../../../../src/main/core/client/errors';

describe('unlessAborted', () => {
  it("answers the work's outcome when it comes first", async () => {
    const c = new AbortController();
    expect(await unlessAborted(Promise.resolve(7), c.signal)).toBe(7);
    await expect(unlessAborted(Promise.reject(new Error('refused')), c.signal)).rejects.toThrow('refused');
    c.abort();
  });

  it("fails with a deadline's timeout as soon as it fires, while the work goes on", async () => {
    const c = new AbortController();
    let finish!: (n: number) => void;
    const work = new Promise<number>((r) => (finish = r));
    const late = new ServiceError('timeout', 'The service took longer than 1 s to answer.');
    const answer = unlessAborted(work, c.signal);
    c.abort(late);
    await expect(answer).rejects.toBe(late);
    finish(1);
    expect(await work).toBe(1);
  });

  it('says cancelled when the caller gave up, even before it started', async () => {
    const c = new AbortController();
    c.abort();
    const err = await unlessAborted(new Promise<number>(() => {}), c.signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toMatchObject({ kind: 'cancelled', message: 'The request was cancelled.' });
  });
});

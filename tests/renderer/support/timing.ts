import { vi } from 'vitest';
import { nextTick } from 'vue';

/** Let the fake API's answers land and the views render them. */
export const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await nextTick();
  }
};

/** Run `body` with setInterval faked (the 30 s forecast reads), real timers again after it. */
export async function withFakeIntervals(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
}

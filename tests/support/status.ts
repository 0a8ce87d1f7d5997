import type { StatusSnapshot } from '../../src/shared/contract';

/** A status snapshot online, with nothing to say but `patch` (a custom network unless it says). */
export const statusWith = (patch: Partial<StatusSnapshot> = {}): StatusSnapshot => ({
  network: 'custom',
  online: true,
  offlineSince: null,
  streams: [],
  storeNotice: null,
  storeError: null,
  historyGaps: [],
  internalError: null,
  credits: null,
  reads: null,
  ...patch,
});

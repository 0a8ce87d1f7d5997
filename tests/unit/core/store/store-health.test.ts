import { describe, expect, it } from 'vitest';
import { StoreHealth } from '../../../../src/main/core/store/store-health';

describe('store health', () => {
  it('one source writing again does not clear another that still fails; a new failure alerts once', () => {
    const alerts: string[] = [];
    let margin: string | null = null;
    const h = new StoreHealth(
      () => margin,
      (reason) => alerts.push(reason),
      () => {},
    );
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    h.noteError(full, 'pool:SUI_USDC');
    h.noteError(full, 'pool:WAL_USDC');
    expect(h.current()).toBe('cannot write to the store: disk full');
    h.noteOk('pool:SUI_USDC');
    expect(h.current()).toBe('cannot write to the store: disk full');
    margin = 'cannot write to the store: disk full';
    h.note(undefined, 'pool:WAL_USDC');
    expect(h.current()).toBe('cannot write to the store: disk full');
    margin = null;
    h.changed();
    expect(h.current()).toBeNull();
    expect(alerts).toEqual(['cannot write to the store: disk full']);
  });
});

import { describe, expect, it } from 'vitest';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import { StoreHealth } from '../../../../src/main/core/store/store-health';

describe('store health', () => {
  it('one source writing again does not clear another that still fails; a new failure alerts once', () => {
    const events = new EventBus<CoreEvents>();
    const alerts: string[] = [];
    const shown: Array<string | null> = [];
    events.on('storeFailed', ({ reason }) => alerts.push(reason));
    events.on('storeHealthChanged', ({ error }) => shown.push(error));
    const h = new StoreHealth(events);
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    h.noteError(full, 'pool:SUI_USDC');
    h.noteError(full, 'pool:WAL_USDC');
    expect(h.current()).toBe('cannot write to the store: disk full');
    h.noteOk('pool:SUI_USDC');
    expect(h.current()).toBe('cannot write to the store: disk full');
    events.emit('marginStoreChanged', { failure: 'cannot write to the store: disk full' });
    h.note(undefined, 'pool:WAL_USDC');
    expect(h.current()).toBe('cannot write to the store: disk full');
    events.emit('marginStoreChanged', { failure: null });
    expect(h.current()).toBeNull();
    expect(alerts).toEqual(['cannot write to the store: disk full']);
    expect(shown.at(-1)).toBeNull();
    expect(shown).toHaveLength(6);
  });
});

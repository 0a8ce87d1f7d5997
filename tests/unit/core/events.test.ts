import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/main/core/events';

interface TestEvents {
  counted: { n: number };
  opened: void;
}

describe('the event bus', () => {
  it('tells every listener synchronously, in the order they subscribed', () => {
    const bus = new EventBus<TestEvents>();
    const told: string[] = [];
    bus.on('counted', ({ n }) => told.push(`first ${n}`));
    bus.on('counted', ({ n }) => told.push(`second ${n}`));
    bus.on('opened', () => told.push('opened'));
    bus.emit('counted', { n: 1 });
    told.push('after the emit');
    bus.emit('opened');
    expect(told).toEqual(['first 1', 'second 1', 'after the emit', 'opened']);
  });

  it('logs a listener that throws and still tells the others', () => {
    const lines: string[] = [];
    const bus = new EventBus<TestEvents>((line) => lines.push(line));
    const told: number[] = [];
    bus.on('counted', () => {
      throw new Error('the disk is full');
    });
    bus.on('counted', ({ n }) => told.push(n));
    expect(() => bus.emit('counted', { n: 7 })).not.toThrow();
    expect(told).toEqual([7]);
    expect(lines).toEqual(['a listener of counted failed: the disk is full']);
  });

  it('stops telling a listener once it is removed, by off or by what on returned', () => {
    const bus = new EventBus<TestEvents>();
    const told: string[] = [];
    const a = ({ n }: { n: number }): number => told.push(`a${n}`);
    const stopB = bus.on('counted', ({ n }) => told.push(`b${n}`));
    bus.on('counted', a);
    bus.emit('counted', { n: 1 });
    bus.off('counted', a);
    stopB();
    stopB(); // a second call removes nothing more
    bus.emit('counted', { n: 2 });
    expect(told).toEqual(['b1', 'a1']);
    expect(bus.listenerCount('counted')).toBe(0);
  });

  it('delivers an emit to the listeners it began with: one added or removed meanwhile counts from the next', () => {
    const bus = new EventBus<TestEvents>();
    const told: string[] = [];
    const late = ({ n }: { n: number }): number => told.push(`late${n}`);
    const second = ({ n }: { n: number }): number => told.push(`second${n}`);
    bus.on('counted', ({ n }) => {
      told.push(`first${n}`);
      if (n === 1) {
        bus.on('counted', late);
        bus.off('counted', second);
      }
    });
    bus.on('counted', second);
    bus.emit('counted', { n: 1 });
    bus.emit('counted', { n: 2 });
    expect(told).toEqual(['first1', 'second1', 'first2', 'late2']);
  });

  it('tells a listener subscribed twice twice, and an event nobody hears costs nothing', () => {
    const bus = new EventBus<TestEvents>();
    let count = 0;
    const l = (): number => count++;
    bus.on('opened', l);
    bus.on('opened', l);
    bus.emit('opened');
    expect(count).toBe(2);
    bus.off('opened', l);
    bus.emit('opened');
    expect(count).toBe(3);
    expect(() => bus.emit('counted', { n: 1 })).not.toThrow();
  });

  it('delivers a listener nested emits at once, depth first', () => {
    const bus = new EventBus<TestEvents>();
    const told: string[] = [];
    bus.on('counted', ({ n }) => {
      told.push(`counted ${n}`);
      bus.emit('opened');
    });
    bus.on('opened', () => told.push('opened'));
    bus.on('counted', ({ n }) => told.push(`counted again ${n}`));
    bus.emit('counted', { n: 3 });
    expect(told).toEqual(['counted 3', 'opened', 'counted again 3']);
  });
});

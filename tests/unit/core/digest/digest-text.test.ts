import { describe, expect, it } from 'vitest';
import type { DigestFacts, DigestPosition } from '../../../../src/main/core/digest/digest-facts';
import { DEFAULT_RISK_PARAMS } from '../../../../src/main/core/risk/risk-params';
import { digestText } from '../../../../src/main/core/digest/digest-text';
import type { PositionSummary } from '../../../../src/shared/contract';
import { suiLong } from '../../../support/positions';

const HOUR = 3_600_000;
const AT = Date.UTC(2026, 10, 24, 13);

/** A desk position: its ratio, distance and level now, and its distance 24 h before. */
function held(
  i: number,
  now: { ratio: number; distance: number; level?: PositionSummary['level'] },
  before: number,
): DigestPosition {
  const position = suiLong(
    {
      manager_id: `0x${i.toString(16).padStart(4, '0')}`,
      owner: '0xdesk',
      risk_ratio: now.ratio,
      distance_pct: now.distance,
      level: now.level ?? 'ok',
      risk_params: DEFAULT_RISK_PARAMS,
      pool_name: 'SUI_USDC',
      side: 'long',
      size: 1000,
      interest: { apr: 0.1825 },
    } as Partial<PositionSummary>,
    now.ratio,
  );
  return {
    label: 'desk',
    position,
    then: {
      manager_id: position.manager_id,
      owner: '0xdesk',
      ts_ms: AT - 24 * HOUR,
      risk_ratio: now.ratio,
      debt_usd: position.debt_usd,
      assets_usd: position.collateral_usd,
      distance_pct: before,
    },
  };
}

const facts = (positions: DigestPosition[]): DigestFacts => ({
  at: AT,
  since: AT - 24 * HOUR,
  valuedAt: AT - 43_000,
  positions,
  liquidations: [],
  own: [],
  watched: [],
  other: [],
  labels: new Map([['0xdesk', 'desk']]),
  credits: null,
});

describe('the daily digest of a desk', () => {
  it('names the positions to look at and sums up the rest, after the totals', () => {
    const positions = [
      held(1, { ratio: 1.2, distance: -4, level: 'critical' }, -9),
      held(2, { ratio: 1.24, distance: -9 }, -9.5), // below the minimum borrow ratio 1.25
      held(3, { ratio: 1.5, distance: -20 }, -25), // nearer than 24 h before
      ...Array.from({ length: 97 }, (_, k) => held(10 + k, { ratio: 1.8, distance: -30 - k / 10 }, -28)),
    ];
    const lines = digestText(facts(positions), 'UTC').message.split('\n');
    expect(lines[0]).toMatch(
      /^Assets \$200,000(\.00)?, debt \$[\d,.]+, equity \$[\d,.]+ \(\$[\d,.]+ 24 h before\); interest about \$[\d,.]+ a day at today's rates\.$/,
    );
    expect(lines[1]).toBe('To look at, of your 100 positions, valued 12:59:17 PM UTC (24 h before in brackets):');
    expect(lines.filter((l) => l.startsWith('• desk: '))).toHaveLength(3);
    expect(lines[5]).toBe(
      '97 more: all OK, none nearer its liquidation than 24 h before; the nearest 30.0\u202F% from it.',
    );
    // 100 positions in a few lines, not 100.
    expect(lines.length).toBeLessThan(12);
  });

  it('says all is well in one line when no position needs looking at', () => {
    const lines = digestText(facts([held(1, { ratio: 1.8, distance: -30 }, -28)]), 'UTC').message.split('\n');
    const two = digestText(
      facts([held(1, { ratio: 1.8, distance: -30 }, -28), held(2, { ratio: 1.9, distance: -33 }, -31)]),
      'UTC',
    );
    expect(two.message.split('\n')[1]).toBe(
      'Your 2 positions, valued 12:59:17 PM UTC: all OK, none nearer its liquidation than 24 h before.',
    );
    expect(lines[1]).toBe('Your one position, valued 12:59:17 PM UTC: OK, no nearer its liquidation than 24 h before.');
  });
});

describe('a position with no reading 24 h before', () => {
  it('says so once, in plain words: on its line beside others read then, in the heading where none was', () => {
    const p = { ...held(1, { ratio: 1.2, distance: -4, level: 'critical' }, -9), then: undefined };
    const read = held(2, { ratio: 1.19, distance: -3, level: 'critical' }, -9);
    const mixed = digestText(facts([p, read]), 'UTC').message.split('\n');
    const line = mixed.find((l) => l.startsWith('• desk: '))!;
    expect(line).toContain('ratio 1.200, distance \u22124.0\u202F% (no reading 24 h ago), critical;');
    expect(line).not.toContain('(no reading)');
    expect(mixed[1]).toContain('(24 h before in brackets):');
    // A fresh store (none read a day ago): the heading says it once, no line repeats it.
    const fresh = digestText(facts([p, { ...read, then: undefined }]), 'UTC').message;
    expect(fresh.split('\n')[1]).toMatch(/^Your 2 positions, valued .* \(no reading of them 24 h ago\):$/);
    expect(fresh.match(/no reading/g)).toHaveLength(1);
  });
});

describe('positions all OK with no reading 24 h before', () => {
  const critical = held(1, { ratio: 1.2, distance: -4, level: 'critical' }, -9);
  const ok = (i: number, read: boolean): DigestPosition => {
    const p = held(i, { ratio: 1.8, distance: -30 - i }, -28);
    return read ? p : { ...p, then: undefined };
  };

  it('claims no comparison for those not read then', () => {
    const none = digestText(facts([critical, ...[2, 3, 4].map((i) => ok(i, false))]), 'UTC').message.split('\n');
    expect(none).toContain('3 more: all OK (no reading 24 h ago); the nearest 32.0\u202F% from it.');
    const some = digestText(facts([critical, ok(2, true), ok(3, false), ok(4, false)]), 'UTC').message.split('\n');
    expect(some).toContain(
      '3 more: all OK; of the 1 read 24 h before, none nearer its liquidation than then; the nearest 32.0\u202F% from it.',
    );
    const alone = digestText(facts([ok(2, false), ok(3, false)]), 'UTC').message.split('\n');
    expect(alone[1]).toBe('Your 2 positions, valued 12:59:17 PM UTC: all OK (no reading 24 h ago).');
  });
});

describe("the digest's valuation time", () => {
  it('is written to the second as the Portfolio writes it, on the digest zone, its day when of another', () => {
    const p = [held(1, { ratio: 1.8, distance: -30 }, -28)];
    const line = (valuedAt: number) => digestText({ ...facts(p), valuedAt }, 'America/New_York').message.split('\n')[1];
    expect(line(AT - 43_000)).toMatch(/^Your one position, valued 7:59:17 AM EST: /);
    expect(line(AT - 20 * HOUR - 43_000)).toMatch(/^Your one position, valued Nov 23, 11:59:17 AM EST: /);
  });
});

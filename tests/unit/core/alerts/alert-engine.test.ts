import { afterEach, describe, expect, it } from 'vitest';
import { AlertEngine, riskAlertText } from '../../../../src/main/core/alerts/alert-engine';
import type { IncomingMarginEvent } from '../../../../src/main/core/store/margin-events';
import { Store } from '../../../../src/main/core/store/store';
import type { AlertRecord, RiskReading } from '../../../../src/shared/contract';
import { NO_CHANNEL } from '../../../../src/shared/status';
import { alertsHeard } from '../../../support/events';

const rules = { warning: 1.275, critical: 1.225, near_pct: 3, liquidation: 1.2 };
const about = {
  pool: 'WAL_USDC',
  headline: 'Long 10,175 WAL on WAL_USDC: 1.199, liquidation at $0.1965, \u22120.1 %',
  action: 'Deposit 307.41 USDC or repay 70.71 USDC \u2192 1.275',
  text: 'Assets $2,000, debt 1,668 USDC ($1,668): ratio 1.199.',
  liquidation: 1.2,
  ratio: 1.199,
  distance: -0.1,
  updated: 5_000,
};
const reading = (risk_ratio: number, ts_ms: number, distance_pct = -0.1): RiskReading => ({
  manager_id: `0x${'ab'.repeat(32)}`,
  owner: '0xowner',
  ts_ms,
  risk_ratio,
  debt_usd: 1668,
  assets_usd: 1668 * risk_ratio,
  distance_pct,
});

let store: Store | undefined;
afterEach(() => store?.close());

function start(): { engine: AlertEngine; pushed: AlertRecord[] } {
  store = Store.openInMemory();
  const pushed: AlertRecord[] = [];
  return { engine: new AlertEngine(store.risk, alertsHeard(pushed), 15 * 60_000), pushed };
}

describe('the alert engine (injected clock, a store in memory)', () => {
  it('says a liquidatable position with the action first, at the channels\u2019 critical level', () => {
    const { engine, pushed } = start();
    const fired = engine.onReadings(
      [reading(1.199, 1_000)],
      () => rules,
      1_000,
      () => about,
    );
    expect(fired).toHaveLength(1);
    expect(pushed).toEqual(fired);
    expect(fired[0]).toMatchObject({
      rule: 'risk-threshold',
      level: 'critical',
      title: `Liquidatable now \u2014 ${about.headline}`,
    });
    expect(fired[0]!.message).toBe(
      `${about.action} now. Its ratio 1.199 is at or below its liquidation ratio 1.2: liquidators can take it at any moment. ` +
        `${about.text} It is liquidated at or below a ratio of 1.2.`,
    );
    // The same reading again within the cooldown: nothing new.
    expect(
      engine.onReadings(
        [reading(1.199, 2_000)],
        () => rules,
        2_000,
        () => about,
      ),
    ).toEqual([]);
  });

  it('says a critical position that came half as close again, and never twice for one reading', () => {
    const text = riskAlertText(
      { level: 'critical', kind: 'worse', from: 'critical' },
      reading(1.21, 0),
      rules,
      undefined,
    );
    expect(text.title).toBe('Critical, closer \u2014 Margin manager 0xababab\u2026abab: risk ratio 1.210');
    expect(text.message).toMatch(
      /^Still critical, and half as far from liquidation as at the last alert\. A 0\.1 % fall/,
    );
  });

  it('a valuation of the records from before a liquidation alerts nothing; one from after alerts afresh', () => {
    const { engine } = start();
    const id = `0x${'ab'.repeat(32)}`;
    expect(
      engine.onReadings(
        [reading(1.199, 1_000)],
        () => rules,
        1_000,
        () => about,
      ),
    ).toHaveLength(1);
    // Liquidated on chain at 6,000 (after the records' 5,000): the Liquidated alert, then a
    // valuation still of the old records (the owner's records not read again yet).
    const liquidation = {
      id: '6000-0',
      type: 'liquidation',
      margin_manager_id: id,
      timestamp_ms: 6_000,
      data: '{}',
    } as unknown as IncomingMarginEvent;
    expect(
      engine.onLiquidation(liquidation, '0xowner', 0, {}, { amounts: () => undefined, pool: () => undefined }, 6_100)
        ?.title,
    ).toBe('Liquidated');
    expect(
      engine.onReadings(
        [reading(1.199, 6_200)],
        () => rules,
        6_200,
        () => about,
      ),
    ).toEqual([]);
    // The records read again (changed at 6,000): what is left is judged as a new position.
    const after = { ...about, updated: 6_000 };
    expect(
      engine.onReadings(
        [reading(1.199, 7_000)],
        () => rules,
        7_000,
        () => after,
      ),
    ).toHaveLength(1);
  });

  it('tells "cannot reach you" apart from "cannot see" when only the channels fail', () => {
    const { engine } = start();
    const unheard = engine.onBlind(0, [`${NO_CHANNEL} (phone (ntfy): connection refused)`], 180_000)!;
    expect(unheard.title).toBe('Tidewatch cannot reach you');
    expect(unheard.message).toMatch(/still watches .* none reaches your phone .* Settings/);
    const blind = engine.onBlind(1, ['the service cannot be reached', `${NO_CHANNEL} (phone (ntfy): x)`], 180_000)!;
    expect(blind.title).toBe('Tidewatch cannot see');
  });
});

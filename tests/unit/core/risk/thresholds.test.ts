import { describe, expect, it } from 'vitest';
import { levelOf, movePct, priceAtRatio } from '../../../../src/shared/risk-model';
import { thresholdsFrom } from '../../../../src/main/core/risk/thresholds';
import type { TrackerState } from '../../../../src/main/core/alerts/escalation';
import { AlertEngine } from '../../../../src/main/core/alerts/alert-engine';
import { NO_CHANNELS } from '../../../../src/main/core/store/risk-alert-repo';
import { Store } from '../../../../src/main/core/store/store';
import type { PositionSummary, RiskReading } from '../../../../src/shared/contract';
import { DEFAULT_SETTINGS, MemorySecretStore, SettingsService } from '../../../../src/main/core/settings';
import { describePosition } from '../../../../src/main/core/alerts/position-text';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';

describe('alerts kept across a restart', () => {
  const t = { warning: 1.5, critical: 1.25, near_pct: null, liquidation: 1.1 };

  it('a restarted app does not alert again a position still below its threshold, and alerts one that got worse', () => {
    const store = Store.openInMemory();
    store.risk.routeWith(NO_CHANNELS);
    try {
      const reading = (manager_id: string, risk_ratio: number, ts_ms: number): RiskReading => ({
        manager_id,
        owner: '0xowner',
        ts_ms,
        risk_ratio,
        debt_usd: 100,
        assets_usd: 140,
        distance_pct: -5,
      });
      const levels = {
        load: () => store.settings.get<TrackerState>('risk.levels'),
        save: (s: TrackerState) => store.settings.set('risk.levels', s),
      };
      const start = (): { engine: AlertEngine; pushed: string[] } => {
        const pushed: string[] = [];
        const events = new EventBus<CoreEvents>();
        events.on('alertsRaised', ({ alerts }) => pushed.push(...alerts.map((x) => `${x.manager_id}:${x.level}`)));
        const engine = new AlertEngine(store.risk, events, 15 * 60_000, () => {}, levels);
        return { engine, pushed };
      };
      const first = start();
      first.engine.onReadings([reading('a', 1.4, 1_000), reading('b', 1.3, 1_000)], () => t, 1_000);
      expect(first.pushed).toEqual(['a:warning', 'b:warning']);
      // Restarted: the same positions, still below the warning threshold; then one of them worse.
      const second = start();
      second.engine.onReadings([reading('a', 1.41, 60_000), reading('b', 1.3, 60_000)], () => t, 60_000);
      expect(second.pushed).toEqual([]);
      second.engine.onReadings([reading('a', 1.41, 90_000), reading('b', 1.2, 90_000)], () => t, 90_000);
      expect(second.pushed).toEqual(['b:critical']);
      // Without the kept levels (as before) the restart alerted both again.
      const forgetful = new AlertEngine(store.risk, new EventBus<CoreEvents>(), 15 * 60_000);
      expect(forgetful.onReadings([reading('a', 1.41, 120_000)], () => t, 120_000).map((x) => x.level)).toEqual([
        'warning',
      ]);
    } finally {
      store.close();
    }
  });
});

describe('thresholds that mean something', () => {
  it('settings saved with the old defaults (1.5 / 1.25) take the new ones; a choice of the user stays', () => {
    const store = Store.openInMemory();
    try {
      const s = new SettingsService(store.settings, new MemorySecretStore());
      store.settings.set('settings', { warningRatio: 1.5, criticalRatio: 1.25 });
      expect(s.get()).toMatchObject({
        warningRatio: DEFAULT_SETTINGS.warningRatio,
        criticalRatio: DEFAULT_SETTINGS.criticalRatio,
        nearLiquidationPct: 3,
      });
      store.settings.set('settings', { warningRatio: 1.6, criticalRatio: 1.25 });
      expect(s.get()).toMatchObject({ warningRatio: 1.6, criticalRatio: 1.25 });
      // Chosen now, 1.5 / 1.25 stay: only settings saved before the change are moved.
      s.update({ warningRatio: 1.5, criticalRatio: 1.25 });
      expect(s.get()).toMatchObject({ warningRatio: 1.5, criticalRatio: 1.25 });
      expect(s.get()).not.toHaveProperty('version');
    } finally {
      store.close();
    }
  });

  it('a healthy 3-5x long (ratio 1.25-1.5) is ok by default; within 3 % of its liquidation price it is critical at any ratio', () => {
    const t = thresholdsFrom(DEFAULT_SETTINGS, {})('m', { liquidation: 1.125 });
    for (const ratio of [1.25, 1.33, 1.5]) expect(levelOf(ratio, (1.125 / ratio - 1) * 100, t, 1.125)).toBe('ok');
    expect(levelOf(1.19, -5.5, t, 1.125)).toBe('warning');
    expect(levelOf(1.3, -2.9, t, 1.125)).toBe('critical');
    expect(levelOf(1.1, -1, t, 1.125)).toBe('liquidatable');
    // A pool that liquidates at 1.2 moves the ratio thresholds alike; a manager's own stay as set.
    expect(thresholdsFrom(DEFAULT_SETTINGS, {})('m', { liquidation: 1.2 })).toEqual({
      warning: 1.275,
      critical: 1.225,
      near_pct: 3,
    });
    expect(thresholdsFrom(DEFAULT_SETTINGS, { m: { warning: 2, critical: 1.5 } })('m', { liquidation: 1.2 })).toEqual({
      warning: 2,
      critical: 1.5,
      near_pct: 3,
    });
  });

  it("an alert gives the valuation's own figures and what to do", () => {
    const h = { base: 1000, quote: 0, debtBase: 0, debtQuote: 2600 };
    const p = {
      pool_name: 'SUI_USDC',
      moving_symbol: 'SUI',
      collateral_usd: 3000,
      debt_usd: 2600,
      risk_ratio: 3000 / 2600,
      liquidation_ratio: 1.125,
      liquidation_price: priceAtRatio(h, 1, 1.125),
      distance_pct: movePct(3, priceAtRatio(h, 1, 1.125)),
      debts: [{ margin_pool_id: 'm', symbol: 'USDC', amount: 2600, usd: 2600 }],
      repair: {
        target: 1.2,
        deposits: [{ symbol: 'USDC', amount: 120, usd: 120 }],
        repay: { symbol: 'USDC', amount: 100, usd: 100, from: 'wallet' },
        liquidation_price_after: null,
      },
    } as unknown as PositionSummary;
    const words = describePosition({ ...p, side: 'long', size: 1000, base_symbol: 'SUI' } as PositionSummary);
    expect(words.text).toBe(
      'Assets $3,000.00, debt 2,600.00 USDC: ratio 1.153. SUI at $2.9250 (\u22122.5\u202F%) liquidates it.',
    );
    expect(words.headline).toBe('Long 1,000.0000 SUI on SUI_USDC: 1.153, liquidation at $2.9250, \u22122.5\u202F%');
    expect(words.action).toBe('Deposit 120.00 USDC or repay 100.00 USDC from your wallet \u2192 1.200');
  });
});

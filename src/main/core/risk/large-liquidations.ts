import { EVENT_TYPES } from '../../../shared/api';
import { amountText, CORE_LOCALE } from '../../../shared/format';
import { marginAmount } from '../../../shared/units';
import type { AlertEngine } from '../alerts/alert-engine';
import { describeForLog } from '../client/errors';
import type { SettingsService } from '../settings';
import type { IncomingMarginEvent } from '../store/margin-events';
import type { AssetBookCache } from './asset-book';
import type { PriceBook } from './prices';

/**
 * The optional protocol-wide rule: a live liquidation (not replayed history, so after `since`)
 * worth more than `limitUsd`, priced with the exchange's own stablecoin pools.
 */
export async function checkLargeLiquidations(
  events: readonly IncomingMarginEvent[],
  d: {
    limitUsd: number | null;
    since: number;
    assets: AssetBookCache;
    prices: PriceBook;
    alerts: AlertEngine;
    closed(): boolean;
    log(line: string): void;
  },
): Promise<void> {
  if (d.limitUsd === null) return;
  const live = events.filter((e) => e.type === EVENT_TYPES.liquidation && e.valid && (e.timestamp_ms ?? 0) >= d.since);
  if (live.length === 0) return;
  try {
    const book = await d.assets.load();
    for (const e of live) {
      const data = JSON.parse(e.data) as { margin_pool_id?: string; liquidation_amount?: number };
      const asset = data.margin_pool_id ? book.marginPoolAsset.get(data.margin_pool_id) : undefined;
      const decimals = asset ? book.decimalsOf.get(asset) : undefined;
      if (!asset || decimals === undefined || typeof data.liquidation_amount !== 'number') continue;
      const price = await d.prices.of(asset);
      if (price === null || d.closed()) continue;
      const amount = marginAmount(data.liquidation_amount, decimals);
      const usd = amount * price;
      if (usd >= d.limitUsd)
        d.alerts.onLargeLiquidation(e, usd, amountText(amount, asset.split('::').pop() ?? asset, CORE_LOCALE));
    }
  } catch (err) {
    d.log(`large-liquidation check skipped: ${describeForLog(err)}`);
  }
}

export interface LargeLiquidationDeps {
  /** Settings `largeLiquidationUsd`: the threshold, or null (the rule is off). */
  settings: Pick<SettingsService, 'effective'>;
  assets: AssetBookCache;
  prices: PriceBook;
  alerts: AlertEngine;
  log(line: string): void;
}

/**
 * The rule as the margin stream's dispatch runs it after each commit (streams/margin-dispatch.ts):
 * liquidations from before it was built (replayed history) never raise its alert; once closed, a
 * check still pricing raises nothing.
 */
export class LargeLiquidationRule {
  private readonly since = Date.now();
  private closed = false;

  constructor(private readonly d: LargeLiquidationDeps) {}

  /** Check a committed batch (in the background: it may read the asset book and prices). */
  check(events: readonly IncomingMarginEvent[]): void {
    const { settings, assets, prices, alerts, log } = this.d;
    void checkLargeLiquidations(events, {
      limitUsd: settings.effective().largeLiquidationUsd,
      since: this.since,
      assets,
      prices,
      alerts,
      closed: () => this.closed,
      log,
    });
  }

  close(): void {
    this.closed = true;
  }
}

import { DAY_MS, checkpointAt, isoAt } from '../clock';
import { ASSETS } from '../chain/assets';
import { riskOf } from '../chain/margin';
import { activeLoanToWire, managerToWire } from '../chain/margin-wire';
import { digestOf } from '../chain/series';
import { CURVE, PROTOCOL_SPREAD } from '../chain/margin-pools';
import type { World } from '../chain/world';
import { badParameter, notFound } from './errors';
import { paginate, type Query } from './query';
import { route, type Route, type RouteContext } from './route';

/** Keep the items for which every filter that is present holds (docs/service.md, Margin endpoints). */
function where<T>(items: readonly T[], filters: Array<[string | undefined, (item: T, value: string) => boolean]>): T[] {
  const active = filters.filter(([value]) => value !== undefined) as Array<
    [string, (item: T, value: string) => boolean]
  >;
  return items.filter((item) => active.every(([value, test]) => test(item, value)));
}

function checkpointRange(query: Query): { from: number; to: number } {
  const from = query.num('fromCheckpoint') ?? 0;
  const to = query.num('toCheckpoint') ?? Number.MAX_SAFE_INTEGER;
  if (from > to) throw badParameter(`fromCheckpoint (${from}) must not be after toCheckpoint (${to})`);
  return { from, to };
}

const newestFirst = <T>(items: T[], time: (t: T) => number): T[] => items.sort((a, b) => time(b) - time(a));

/**
 * The margin endpoints (docs/service.md, Margin endpoints). Lists are computed per request: loans
 * and supplies follow live prices.
 */
export function marginRoutes(world: World, o: { riskParams: boolean } = { riskParams: true }): Route[] {
  const m = world.margin;
  const managerById = (): Map<string, (typeof m.managers)[number]> => new Map(m.managers.map((x) => [x.id, x]));

  const referrals = ({ query, params }: RouteContext): unknown => {
    const { page, perPage } = query.paging();
    const list = where(m.referrals, [
      [params['owner'] ?? query.str('owner'), (r, v) => r.owner === v],
      [query.str('marginPoolId'), (r, v) => r.margin_pool_id === v],
    ]);
    return paginate(
      newestFirst(list, (r) => r.onchain_timestamp),
      page,
      perPage,
    );
  };

  const caps = ({ query }: RouteContext): unknown => {
    const { page, perPage } = query.paging();
    const list = where(m.caps, [[query.str('owner'), (c, v) => c.owner === v]]);
    return paginate(
      newestFirst(list, (c) => c.checkpoint_id),
      page,
      perPage,
    );
  };

  const managers = ({ query, params }: RouteContext): unknown => {
    const { page, perPage } = query.paging();
    const list = where(m.managers, [
      [params['owner'], (x, v) => x.owner === v],
      [query.str('balanceManagerId'), (x, v) => x.balanceManager === v],
      [query.str('dexPoolId'), (x, v) => x.market.pool.pool_id === v],
    ]);
    const sorted = newestFirst(list, (x) => x.created.ms);
    const result = paginate(sorted, page, perPage);
    return { ...result, items: result.items.map((x) => managerToWire(m, x)) };
  };

  const liquidations = ({ query, params }: RouteContext): unknown => {
    const { page, perPage } = query.paging();
    const { from, to } = checkpointRange(query);
    const byId = managerById();
    const list = where(m.liquidations, [
      [params['owner'], (l, v) => byId.get(l.margin_manager_id)?.owner === v],
      [query.str('marginManagerId'), (l, v) => l.margin_manager_id === v],
      [query.str('marginPoolId'), (l, v) => l.margin_pool_id === v],
      [query.str('balanceManagerId'), (l, v) => byId.get(l.margin_manager_id)?.balanceManager === v],
    ]).filter((l) => l.checkpoint >= from && l.checkpoint <= to);
    return paginate(
      newestFirst(list, (l) => l.onchain_timestamp),
      page,
      perPage,
    );
  };

  const supplies = ({ query, params }: RouteContext): unknown => {
    const { page, perPage } = query.paging();
    const list = where(m.activeSupplies(), [
      [params['owner'], (s, v) => s.supplier_cap?.owner === v],
      [query.str('marginPoolId'), (s, v) => s.margin_pool_id === v],
      [query.str('supplierCapId'), (s, v) => s.supplier_cap_id === v],
      [query.str('assetType'), (s, v) => s.asset_type === v],
    ]);
    return paginate(
      newestFirst(list, (s) => s.checkpoint_timestamp_ms),
      page,
      perPage,
    );
  };

  const loans = ({ query, params }: RouteContext): unknown => {
    const { page, perPage } = query.paging();
    const list = where(m.borrowers(), [
      [params['owner'], (x, v) => x.owner === v],
      [query.str('marginManagerId'), (x, v) => x.id === v],
      [query.str('marginPoolId'), (x, v) => x.debt?.pool.id === v],
      [query.str('balanceManagerId'), (x, v) => x.balanceManager === v],
    ]);
    // Filter and page first: only the served page is turned into wire objects (risk ratios at live prices).
    const result = paginate(
      newestFirst(list, (x) => m.loanUpdatedMs(x)),
      page,
      perPage,
    );
    return { ...result, items: result.items.map((x) => activeLoanToWire(m, x)).filter((x) => x !== null) };
  };

  // Not in the service contract: the real service publishes both (docs/service.md, Beyond the
  // service contract); fields as its docs name them, in spec naming.
  const registeredAt = world.startMs - 90 * DAY_MS;
  const stamp = {
    checkpoint_id: checkpointAt(registeredAt),
    digest: digestOf('registry', 0),
    onchain_timestamp: registeredAt,
    created_at: isoAt(registeredAt),
    updated_at: isoAt(registeredAt),
  };
  const marginMarkets = world.markets.filter((x) => x.spec.marginEnabled);
  const marginPools = ({ query }: RouteContext): unknown =>
    where(
      [...m.pools.values()],
      [
        [query.str('assetType'), (p, v) => ASSETS[p.symbol]!.type === v],
        [
          query.str('dexPoolId'),
          (p, v) =>
            marginMarkets.some((x) => x.pool.pool_id === v && (x.spec.base === p.symbol || x.spec.quote === p.symbol)),
        ],
      ],
    ).map((p) => ({
      margin_pool_id: p.id,
      asset_type: ASSETS[p.symbol]!.type,
      supply_cap: 1e18,
      max_utilization_rate: 0.9,
      protocol_spread: PROTOCOL_SPREAD,
      min_borrow: 10 ** ASSETS[p.symbol]!.decimals,
      ...CURVE,
      total_supply: Math.round(p.supplyShares * p.supplyIndex),
      total_borrow: Math.round(p.borrowShares * p.borrowIndex),
      dex_pool_ids: marginMarkets
        .filter((x) => x.spec.base === p.symbol || x.spec.quote === p.symbol)
        .map((x) => x.pool.pool_id),
      ...stamp,
    }));
  const registered = ({ query }: RouteContext): unknown =>
    where(marginMarkets, [
      [query.str('marginPoolId'), (x, v) => m.pools.get(x.spec.base)?.id === v || m.pools.get(x.spec.quote)?.id === v],
    ]).map((x) => {
      const r = riskOf(x.spec);
      return {
        pool_id: x.pool.pool_id,
        pool_name: x.pool.pool_name,
        base_margin_pool_id: m.pools.get(x.spec.base)!.id,
        quote_margin_pool_id: m.pools.get(x.spec.quote)!.id,
        base_asset_id: x.pool.base_asset_id,
        quote_asset_id: x.pool.quote_asset_id,
        min_withdraw_risk_ratio: r.minWithdraw,
        min_borrow_risk_ratio: r.minBorrow,
        liquidation_risk_ratio: r.liquidation,
        target_liquidation_risk_ratio: r.targetLiquidation,
        user_liquidation_reward: r.liquidatorReward,
        pool_liquidation_reward: r.poolReward,
        enabled: true,
        extra_fields: null,
        ...stamp,
      };
    });

  return [
    ...(o.riskParams
      ? [route('/dex-margin/pools', marginPools), route('/dex-margin/registered-dex-pools', registered)]
      : []),
    route('/dex-margin/supply-referrals/:id', ({ params }) => {
      const found = m.referrals.find((r) => r.supply_referral_id === params['id']);
      if (!found) throw notFound(`supply referral ${params['id']} was not found`);
      return found;
    }),
    route('/dex-margin/supply-referrals', referrals),
    route('/dex-margin/supplier-caps/:id', ({ params }) => {
      const found = m.caps.find((c) => c.supplier_cap_id === params['id']);
      if (!found) throw notFound(`supplier cap ${params['id']} was not found`);
      return found;
    }),
    route('/dex-margin/supplier-caps', caps),
    route('/dex-margin/margin-managers/:owner', managers),
    route('/dex-margin/margin-managers', managers),
    route('/dex-margin/liquidations/:owner', liquidations),
    route('/dex-margin/liquidations', liquidations),
    route('/dex-margin/active-supplies/:owner', supplies),
    route('/dex-margin/active-supplies', supplies),
    route('/dex-margin/active-loans/:owner', loans),
    route('/dex-margin/active-loans', loans),
  ];
}

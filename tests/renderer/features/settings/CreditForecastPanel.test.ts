// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { forecast } from '../../../../src/main/core/budget/cost-model';
import type {
  CreditForecast,
  ForecastPreview,
  ReadPlan,
  Settings,
  StatusSnapshot,
} from '../../../../src/shared/contract';
import { PLANS, type PlanName } from '../../../../src/shared/credit-prices';
import { setApi } from '../../../../src/renderer/src/api';
import StatusBar from '../../../../src/renderer/src/components/StatusBar.vue';
import { PREVIEW_SETTLE_MS } from '../../../../src/renderer/src/composables/useCreditForecast';
import SettingsView from '../../../../src/renderer/src/features/settings/SettingsView.vue';
import { useStatusStore } from '../../../../src/renderer/src/stores/status';
import { fakeApi } from '../../../support/fake-api';
import { DEMO_SETTINGS, SETTINGS } from '../../support/settings';
import { settle, withFakeIntervals } from '../../support/timing';
import { statusWith } from '../../../support/status';

beforeEach(() => setActivePinia(createPinia()));

const price = (symbol: string, everyMs: number | null, slowed: boolean): ReadPlan['prices'][number] => ({
  symbol,
  everyMs,
  slowed,
  why: 'near liquidation (+2.0 %)',
  readAt: null,
});
/** The plan in force, as the monitor's schedule moves through a day on the Free plan. */
const PLANS_IN_FORCE: ReadPlan[] = [
  {
    prices: [price('SUI', 45_000, false), price('WAL', 900_000, false)],
    recordsEveryMs: 10_800_000,
    recordsSlowed: false,
    pace: 1,
    budgetNote: null,
  },
  {
    prices: [price('SUI', 900_000, true), price('WAL', 5_400_000, true)],
    recordsEveryMs: 86_400_000,
    recordsSlowed: true,
    pace: 40,
    budgetNote: "Reads slowed to stay within this month's credits: the most urgent price every 15 min instead of 45 s.",
  },
  {
    prices: [price('SUI', null, true), price('WAL', null, true)],
    recordsEveryMs: 86_400_000,
    recordsSlowed: true,
    pace: null,
    budgetNote: 'Prices are no longer read.',
  },
];

const statusOf = (reads: ReadPlan, network: StatusSnapshot['network'] = 'custom'): StatusSnapshot =>
  statusWith({ network, reads });

/** The monitor's forecast of a plan, by the cost model itself (2 wallets, 40 credits a records read). */
function forecastOf(reads: ReadPlan, plan: PlanName, extra: Partial<CreditForecast> = {}): CreditForecast {
  return {
    ...forecast({
      plan: { name: plan, plan: PLANS[plan] },
      budget: PLANS[plan].monthlyCredits,
      marginStreamRate: null,
      reads,
      priceCredits: 20,
      owners: 2,
      recordsCredits: 40,
      events: [],
      poolStreams: [],
    }),
    preview: false,
    demo: null,
    ...extra,
  };
}

/** A line's interval and whether it was slowed, as words say them: "15 min slowed", "not read". */
function cadence(text: string): string {
  if (/not read/.test(text)) return 'not read';
  const every = /every ([\d.]+ (?:s|min|h))/.exec(text)?.[1] ?? '?';
  return `${every}${/slowed for the budget/.test(text) ? ' slowed' : ''}`;
}

describe('the credits panel tells one story with the status bar', () => {
  it("its lines are the status bar's reads at every moment: the plan in force changes, the panel follows it", async () => {
    await withFakeIntervals(async () => {
      let inForce = PLANS_IN_FORCE[0]!;
      const f = fakeApi({
        settings: () => SETTINGS,
        watchList: () => [],
        streamStatus: () => statusOf(inForce),
        creditForecast: () => forecastOf(inForce, 'free'),
      });
      setApi(f.api);
      const status = useStatusStore();
      status.start();
      const view = mount(SettingsView, { attachTo: document.body });
      const bar = mount(StatusBar, { attachTo: document.body });
      await settle();
      for (const next of [...PLANS_IN_FORCE, PLANS_IN_FORCE[0]!]) {
        inForce = next;
        f.push('status', statusOf(next));
        await settle();
        const rows = view
          .findAll('[data-testid="forecast-lines"] tbody tr')
          .map((r) => r.findAll('td').map((d) => d.text()));
        const panel = new Map(rows.map(([what, , detail]) => [what!, cadence(detail!)]));
        const tooltip = bar.get('[data-testid="status-bar"]').attributes('title')!.split('\n');
        const told = new Map(
          tooltip
            .map((l) => /^(\w+ price|Margin records) (?:read|not read)/.exec(l))
            .filter((m) => m !== null)
            .map((m, i) => [m[1] === 'Margin records' ? 'Margin records (loans, deposits, supplies)' : m[1]!, i]),
        );
        // Every read the status bar names is a line of the panel, at the same interval, slowed alike.
        expect([...told.keys()].sort()).toEqual(
          [...panel.keys()].filter((w) => / price$|^Margin records/.test(w)).sort(),
        );
        for (const line of tooltip.filter((l) => /^(\w+ price|Margin records)/.test(l))) {
          const what = line.startsWith('Margin records')
            ? 'Margin records (loans, deposits, supplies)'
            : line.split(' read')[0]!.replace(/ not$/, '');
          expect(panel.get(what)).toBe(cadence(line));
        }
      }
      // One read at mount, then one per plan that changed (the last one back to the first).
      expect(f.calls.filter(([m]) => m === 'creditForecast')).toHaveLength(1 + 3);
      view.unmount();
      bar.unmount();
    });
  });

  it('previews a plan picked in the list before Save, and reads the saved one after', async () => {
    let saved: Settings = { ...SETTINGS };
    const reads = PLANS_IN_FORCE[1]!;
    const f = fakeApi({
      settings: () => saved,
      watchList: () => [],
      streamStatus: () => statusOf(reads),
      creditForecast: (a: { preview?: ForecastPreview }) => {
        const plan = (a.preview?.plan ?? saved.plan) as PlanName;
        // Builder's day affords SUI every 45 s: the preview is paced as that plan would pace it.
        const paced = plan === 'builder' ? PLANS_IN_FORCE[0]! : reads;
        return forecastOf(paced, plan, { preview: a.preview !== undefined });
      },
      updateSettings: (patch) => (saved = { ...saved, ...patch }),
    });
    setApi(f.api);
    useStatusStore().start();
    const w = mount(SettingsView, { attachTo: document.body });
    await settle();
    expect(w.get('[data-testid="forecast-sentence"]').text()).toMatch(
      /^About 2,300 credits a day at these settings: 28\u202F% of the Free plan/,
    );
    await w.get('[data-testid="plan"]').setValue('builder');
    await new Promise((r) => setTimeout(r, PREVIEW_SETTLE_MS + 50));
    await settle();
    expect(f.calls.filter(([m]) => m === 'creditForecast').at(-1)![1]).toEqual({ preview: { plan: 'builder' } });
    expect(w.get('[data-testid="forecast-sentence"]').text()).toBe(
      'About 41,000 credits a day at the settings above, not saved: 24\u202F% of the Builder plan (166,667 a day of its 5,000,000 a month).',
    );
    expect(w.get('[data-testid="forecast-preview"]').text()).toBe(
      'A preview of the plan, budget and record reads picked above: Save to keep them.',
    );
    expect(w.find('[data-testid="forecast-pending"]').exists()).toBe(false);
    const sui = w.findAll('[data-testid="forecast-lines"] tbody tr').find((r) => r.text().startsWith('SUI price'))!;
    expect(sui.findAll('td').map((d) => d.text())).toEqual(['SUI price', '38,400', 'every 45 s, 20 credits a read']);
    // Records every 30 min as well: the preview carries both.
    await w.get('[data-testid="records-minutes"]').setValue('30');
    await new Promise((r) => setTimeout(r, PREVIEW_SETTLE_MS + 50));
    await settle();
    expect(f.calls.filter(([m]) => m === 'creditForecast').at(-1)![1]).toEqual({
      preview: { plan: 'builder', recordsRefreshSec: 1_800 },
    });
    // Saved: the forecast is of the saved settings again, no preview asked.
    await w.get('form').trigger('submit');
    await new Promise((r) => setTimeout(r, PREVIEW_SETTLE_MS + 50));
    await settle();
    expect(f.calls.filter(([m]) => m === 'creditForecast').at(-1)![1]).toEqual({});
    expect(w.find('[data-testid="forecast-preview"]').exists()).toBe(false);
    expect(w.get('[data-testid="forecast-sentence"]').text()).toMatch(
      /^About [\d,]+ credits a day at these settings: /,
    );
    w.unmount();
  });

  it('on the Demo network: the forecast as on the service at speed 1, every asset read here, and what the speed does', async () => {
    const here = PLANS_IN_FORCE[0]!;
    const paced = PLANS_IN_FORCE[1]!;
    const f = fakeApi({
      settings: () => DEMO_SETTINGS,
      watchList: () => [],
      streamStatus: () => statusOf(here, 'demo'),
      creditForecast: () => forecastOf(paced, 'free', { demo: { speed: 20, here } }),
    });
    setApi(f.api);
    const status = useStatusStore();
    status.start();
    const w = mount(SettingsView, { attachTo: document.body });
    await settle();
    // Every asset read here, by name, as the status bar has them.
    expect(w.get('[data-testid="forecast-demo"]').text()).toBe(
      "The Demo network charges nothing and slows no read for a budget: here SUI every 45 s, WAL every 15 min, the status bar's reads. The lines below are what the data service would read and charge on the Free plan.",
    );
    expect(w.get('[data-testid="forecast-speed"]').text()).toBe(
      "At speed 20 the Demo network's market runs 20 times faster than real time, so its streams carry 20 times the trades and events (a pool's book still comes 4 times a second), its wallets act 20 times as often and its prices move about 4.5 times as far a second (so they are read more often here); the forecast takes all three back to speed 1.",
    );
    // The figure is the service's at speed 1, paced by the Free plan's budget: inside its day.
    const sentence = w.get('[data-testid="forecast-sentence"]');
    expect(sentence.text()).toBe(
      'On the data service these wallets would cost about 2,300 credits a day at these settings: 28\u202F% of the Free plan (8,333 a day of its 250,000 a month).',
    );
    expect(sentence.classes()).not.toContain('over');
    // The lines are the service's reads: SUI every 15 min, slowed for its budget.
    const rows = w.findAll('[data-testid="forecast-lines"] tbody tr').map((r) => r.findAll('td').map((d) => d.text()));
    expect(rows.find((r) => r[0] === 'SUI price')).toEqual([
      'SUI price',
      '1,920',
      'every 15 min, 20 credits a read (slowed for the budget)',
    ]);
    // The status bar's plan is the one here: a status push of it does not read the forecast again.
    const reads = (): number => f.calls.filter(([m]) => m === 'creditForecast').length;
    const before = reads();
    f.push('status', statusOf(here, 'demo'));
    await settle();
    expect(reads()).toBe(before);
    // A new plan here does.
    f.push('status', statusOf(PLANS_IN_FORCE[2]!, 'demo'));
    await settle();
    expect(reads()).toBe(before + 1);
    w.unmount();
  });
});

// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Settings, WatchEntry, WatchGroup } from '../../../../src/shared/contract';
import { ApiError, setApi } from '../../../../src/renderer/src/api';
import SettingsView from '../../../../src/renderer/src/features/settings/SettingsView.vue';
import { fakeApi } from '../../../support/fake-api';
import { routerAt } from '../../support/router';
import { SETTINGS as DEMO_SETTINGS } from '../../support/portfolio';
import { SETTINGS, FORECAST } from '../../support/settings';
import { settle, withFakeIntervals } from '../../support/timing';
import { useStatusStore } from '../../../../src/renderer/src/stores/status';
import { statusWith } from '../../../support/status';

beforeEach(() => setActivePinia(createPinia()));

describe('the Settings view: plan and credits', () => {
  const mountSettings = (answers: Record<string, (args: any) => unknown> = {}) => {
    let saved: Settings = { ...SETTINGS };
    const f = fakeApi({
      settings: () => saved,
      watchList: () => [],
      creditForecast: () => FORECAST,
      updateSettings: (patch) => (saved = { ...saved, ...patch }),
      ...answers,
    });
    setApi(f.api);
    return { f, w: mount(SettingsView, { attachTo: document.body }) };
  };

  it('shows the forecast beside the meter: the sentence, where the credits go, and what a pool stream costs', async () => {
    const { f, w } = mountSettings();
    await settle();
    expect(w.get('[data-testid="forecast-sentence"]').text()).toBe(
      'About 6,900 credits a day at these settings: 82\u202F% of the Free plan (8,333 a day of its 250,000 a month).',
    );
    const rows = w.findAll('[data-testid="forecast-lines"] tbody tr').map((r) => r.findAll('td').map((d) => d.text()));
    expect(rows).toEqual([
      ['Margin stream (always open: the liquidation alarm)', '50', 'assumed until measured'],
      ['SUI price', '5,760', 'every 5 min, 20 credits a read'],
      ['Margin records (loans, deposits, supplies)', '1,064', 'every 3.0 h, 40 credits a read (2 wallets)'],
    ]);
    expect(w.get('[data-testid="forecast-pools"]').text()).toBe(
      "A pool's page opens its pool's stream while it is shown, where the plan has a stream for it, at 1 credit per KB received: its line says what it costs an hour (from 3 minutes after it opens, once measured), apart from the day's total. A stream the guard holds for a position in danger is counted as if it stayed open all day.",
    );
    expect(f.calls.filter(([m]) => m === 'creditForecast')).toHaveLength(1);
    w.unmount();
  });

  it("says a pool page's stream an hour, apart from the day's total", async () => {
    const page = {
      what: 'SUI_USDC pool stream',
      perDay: 0,
      perHour: 40_000,
      detail: "open while its page is shown, measured; not in the day's total: it closes with the page",
    };
    const { w } = mountSettings({ creditForecast: () => ({ ...FORECAST, lines: [...FORECAST.lines, page] }) });
    await settle();
    // Review: on Builder a page left open in a tab read "1,100,000 credits a day … 671 % of the Builder plan".
    expect(w.get('[data-testid="forecast-sentence"]').text()).toBe(
      'About 6,900 credits a day at these settings: 82\u202F% of the Free plan (8,333 a day of its 250,000 a month). Open, the SUI_USDC page adds about 40,000 credits an hour.',
    );
    const rows = w.findAll('[data-testid="forecast-lines"] tbody tr').map((r) => r.findAll('td').map((d) => d.text()));
    expect(rows.at(-1)).toEqual(['SUI_USDC pool stream', '40,000 an hour', page.detail]);
    w.unmount();
  });

  it('reads the forecast again every 30 s while it is shown, and no more once it is not', async () => {
    await withFakeIntervals(async () => {
      const { f, w } = mountSettings();
      await settle();
      const reads = (): number => f.calls.filter(([m]) => m === 'creditForecast').length;
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(29_000);
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(1_000);
      expect(reads()).toBe(2);
      w.unmount();
      vi.advanceTimersByTime(60_000);
      expect(reads()).toBe(2);
    });
  });

  it('compares with a budget of its own, and says why a forecast could not be read', async () => {
    let fail = false;
    const { w } = mountSettings({
      creditForecast: () => {
        if (fail) throw new ApiError('network', 'Tidewatch cannot be reached.');
        return { ...FORECAST, budget: 100_000, shareOfBudgetDay: 6_874 / (100_000 / 30) };
      },
    });
    await settle();
    expect(w.get('[data-testid="forecast-sentence"]').text()).toBe(
      'About 6,900 credits a day at these settings: 82\u202F% of the Free plan (8,333 a day of its 250,000 a month), and 206\u202F% of your budget (3,333 a day of 100,000 a month).',
    );
    expect(w.get('[data-testid="forecast-sentence"]').classes()).toContain('over');
    fail = true;
    await w.get('form').trigger('submit');
    await settle();
    expect(w.get('[data-testid="forecast-error"]').text()).toBe(
      'The forecast could not be read: Tidewatch cannot be reached.',
    );
    w.unmount();
  });

  it("says beside the records' setting when the plan's budget reads them less often than set", async () => {
    const { w } = mountSettings();
    await settle();
    const hint = () =>
      w.get('[data-testid="records-minutes"]').element.parentElement!.textContent!.replace(/\s+/g, ' ');
    expect(hint()).not.toContain("the plan's budget");
    useStatusStore().snapshot = statusWith({
      reads: { prices: [], recordsEveryMs: 86_400_000, recordsSlowed: true, pace: 3, budgetNote: null },
    });
    await settle();
    expect(hint()).toContain(
      "and whenever a watched manager has an event; the plan's budget reads them every 24 h now",
    );
    w.unmount();
  });

  it('a chosen plan sets its request rate and stream limit, and goes in the patch Save sends; the forecast is read again', async () => {
    const { f, w } = mountSettings();
    await settle();
    expect(w.get('[data-testid="plan-facts"]').text()).toBe(
      'Free: 250,000 credits a month, 10 requests a second, 1 stream open at once.',
    );
    expect((w.get('[data-testid="credit-budget"]').element as HTMLInputElement).placeholder).toBe(
      "the Free plan's 250,000",
    );
    expect((w.get('[data-testid="records-minutes"]').element as HTMLInputElement).value).toBe('180');
    await w.get('[data-testid="plan"]').setValue('builder');
    expect(w.get('[data-testid="plan-facts"]').text()).toBe(
      'Builder: 5,000,000 credits a month, 25 requests a second, 3 streams open at once.',
    );
    expect((w.get('[data-testid="requests-per-second"]').element as HTMLInputElement).value).toBe('25');
    expect((w.get('[data-testid="stream-budget"]').element as HTMLInputElement).value).toBe('3');
    expect(w.find('[data-testid="forecast-pending"]').exists()).toBe(true);
    await w.get('[data-testid="records-minutes"]').setValue('30');
    await w.get('form').trigger('submit');
    await settle();
    const patch = f.calls.find(([m]) => m === 'updateSettings')![1] as Record<string, unknown>;
    expect(patch).toMatchObject({
      plan: 'builder',
      requestsPerSecond: 25,
      streamBudget: 3,
      recordsRefreshSec: 1_800,
      monthlyCreditBudget: null,
    });
    expect(patch).not.toHaveProperty('riskRefreshSec');
    expect(f.calls.filter(([m]) => m === 'creditForecast')).toHaveLength(2);
    expect(w.find('[data-testid="forecast-pending"]').exists()).toBe(false);
    w.unmount();
  });

  it("a request rate other than the plan's makes the plan Custom", async () => {
    const { f, w } = mountSettings();
    await settle();
    await w.get('[data-testid="requests-per-second"]').setValue('4');
    expect((w.get('[data-testid="plan"]').element as HTMLSelectElement).value).toBe('custom');
    expect(w.get('[data-testid="plan-facts"]').text()).toContain('Custom');
    expect((w.get('[data-testid="credit-budget"]').element as HTMLInputElement).placeholder).toBe('none');
    await w.get('form').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'updateSettings')![1]).toMatchObject({
      plan: 'custom',
      requestsPerSecond: 4,
      streamBudget: 1,
    });
    w.unmount();
  });
});

describe('the Settings view: the near-liquidation and interest rules', () => {
  it('edits both next to the ratio thresholds, empty meaning off', async () => {
    let saved: Settings = { ...DEMO_SETTINGS };
    const f = fakeApi({
      settings: () => saved,
      watchList: () => [],
      creditForecast: () => {
        throw new Error('not here');
      },
      updateSettings: (patch) => (saved = { ...saved, ...patch }),
    });
    setApi(f.api);
    const w = mount(SettingsView, { attachTo: document.body });
    await settle();
    const near = w.get('[data-testid="near-liquidation-pct"]');
    const days = w.get('[data-testid="interest-alert-days"]');
    expect((near.element as HTMLInputElement).value).toBe('3');
    expect((days.element as HTMLInputElement).value).toBe('30');
    const dust = w.get('[data-testid="dust-debt-usd"]');
    expect(near.element.closest('label')!.textContent).toContain('% of the liquidation price');
    expect((dust.element as HTMLInputElement).value).toBe('50');
    expect(dust.element.closest('label')!.textContent).toContain('Quiet warnings of positions owing less than $');
    await near.setValue('');
    await days.setValue('14');
    await dust.setValue('25.4');
    await w.get('form').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'updateSettings')![1]).toMatchObject({
      nearLiquidationPct: null,
      interestAlertDays: 14,
      dustDebtUsd: 25,
      warningRatio: 1.2,
      criticalRatio: 1.15,
    });
    w.unmount();
  });
});

describe('the Settings view: the watch list', () => {
  const A = `0x${'a'.repeat(64)}`;
  const B = `0x${'b'.repeat(64)}`;
  it('shows each wallet with its label and group, and saves a new label or group alone', async () => {
    let list: WatchEntry[] = [
      { owner: A, label: 'desk', group: 'mine', added_at: 1 },
      { owner: B, label: null, group: 'mine', added_at: 2 },
    ];
    const f = fakeApi({
      settings: () => DEMO_SETTINGS,
      watchList: () => list,
      creditForecast: () => FORECAST,
      updateWatch: (a: { owner: string; label?: string | null; group?: WatchGroup }) =>
        (list = list.map((w) =>
          w.owner === a.owner
            ? { ...w, ...(a.label !== undefined ? { label: a.label } : {}), ...(a.group ? { group: a.group } : {}) }
            : w,
        )),
      addWatch: (a: { owner: string; label?: string; group?: WatchGroup }) =>
        (list = [...list, { owner: a.owner, label: a.label ?? null, group: a.group ?? 'mine', added_at: 3 }]),
    });
    setApi(f.api);
    const w = mount(SettingsView, { attachTo: document.body, global: { plugins: [await routerAt('/settings')] } });
    await settle();
    const rows = w.findAll('[data-testid="watch-list"] tbody tr');
    expect(rows.map((r) => (r.get('[data-testid="watch-label"]').element as HTMLInputElement).value)).toEqual([
      'desk',
      '',
    ]);
    expect(rows.map((r) => (r.get('[data-testid="watch-group"]').element as HTMLSelectElement).value)).toEqual([
      'mine',
      'mine',
    ]);

    // Move B to "watched", then label it: two calls, each with only what changed.
    await rows[1]!.get('[data-testid="watch-group"]').setValue('watched');
    await settle();
    await rows[1]!.get('[data-testid="watch-label"]').setValue('  whale  ');
    await settle();
    expect(f.calls.filter(([m]) => m === 'updateWatch').map(([, a]) => a)).toEqual([
      { owner: B, group: 'watched' },
      { owner: B, label: 'whale' },
    ]);
    expect(w.get('[role="status"]').text()).toBe('Wallet 0xbbbbbb…bbbb is labelled “whale”.');
    // The same label again is not saved again.
    await w.findAll('[data-testid="watch-label"]')[1]!.setValue('whale');
    await settle();
    expect(f.calls.filter(([m]) => m === 'updateWatch')).toHaveLength(2);
    expect(list.find((x) => x.owner === B)).toMatchObject({ label: 'whale', group: 'watched' });

    // A new wallet goes in the group chosen beside it.
    const C = `0x${'c'.repeat(64)}`;
    await w.get('input[aria-label="Owner address"]').setValue(C);
    await w.get('select[aria-label="Group"]').setValue('watched');
    await w.get('input[aria-label="Owner address"]').element.closest('form')!.dispatchEvent(new Event('submit'));
    await settle();
    expect(f.calls.find(([m]) => m === 'addWatch')![1]).toEqual({ owner: C, label: undefined, group: 'watched' });
    w.unmount();
  });
});

describe('the Settings view: the rule of each group', () => {
  it("shows the defaults (yours alert, watched info, no digest) and saves a rule and the digest's time and channels", async () => {
    let saved: Settings = { ...DEMO_SETTINGS };
    const f = fakeApi({
      settings: () => saved,
      watchList: () => [],
      creditForecast: () => FORECAST,
      updateSettings: (patch) => (saved = { ...saved, ...patch }),
    });
    setApi(f.api);
    const w = mount(SettingsView, { attachTo: document.body });
    await settle();
    expect((w.get('[data-testid="rule-mine"]').element as HTMLSelectElement).value).toBe('alert');
    expect((w.get('[data-testid="rule-watched"]').element as HTMLSelectElement).value).toBe('info');
    expect((w.get('[data-testid="digest-at"]').element as HTMLInputElement).value).toBe('');
    await w.get('[data-testid="rule-watched"]').setValue('alert');
    await w.get('[data-testid="digest-at"]').setValue('07:30');
    await w.get('[data-testid="digest-channels"]').setValue(' phone, ,mail ');
    await w.get('form').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'updateSettings')![1]).toMatchObject({
      groupRules: { mine: 'alert', watched: 'alert' },
      digestAt: '07:30',
      // Kept with the zone it was set on, the browser's (the tests run in UTC), as quiet hours are.
      digestZone: 'UTC',
      digestChannels: ['phone', 'mail'],
    });
    w.unmount();
  });

  it("shows the digest's time on the clock of the zone it is applied on, naming it, and saves the zone chosen", async () => {
    // Set in New York; this browser is in UTC: 8:00 there, named, never "8:00 AM UTC".
    let saved: Settings = { ...DEMO_SETTINGS, digestAt: '08:00', digestZone: 'America/New_York' };
    const f = fakeApi({
      settings: () => saved,
      watchList: () => [],
      creditForecast: () => FORECAST,
      updateSettings: (patch) => (saved = { ...saved, ...patch }),
    });
    setApi(f.api);
    const w = mount(SettingsView, { attachTo: document.body });
    await settle();
    expect((w.get('[data-testid="digest-zone"]').element as HTMLSelectElement).value).toBe('America/New_York');
    expect(w.get('[data-testid="digest-when"]').text()).toMatch(/^at 8:00 AM E[SD]T \(America\/New_York\)$/);
    await w.get('[data-testid="digest-zone"]').setValue('Asia/Tokyo');
    expect(w.get('[data-testid="digest-when"]').text()).toBe('at 8:00 AM GMT+9 (Asia/Tokyo)');
    await w.get('form').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'updateSettings')![1]).toMatchObject({
      digestAt: '08:00',
      digestZone: 'Asia/Tokyo',
    });
    w.unmount();
  });
});

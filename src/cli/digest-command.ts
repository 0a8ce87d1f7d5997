import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CreditMeter, CREDITS_KEY, type CreditCounts } from '../main/core/credits/credit-meter';
import { gatherDigest, storeDigestSources } from '../main/core/digest/digest-facts';
import { digestText } from '../main/core/digest/digest-text';
import { MemorySecretStore, monthlyBudgetOf, SettingsService } from '../main/core/settings';
import { Store, STORE_FILE } from '../main/core/store/store';
import { parse, UsageError } from './args';
import { DEFAULT_DATA_DIR } from './service-options';

export const DIGEST_USAGE = `tidewatch digest: the daily digest, printed now

  tidewatch digest --now [--data-dir DIR]

  --now   the digest as it would be sent at this moment, from what the store keeps (offline
          too): each of your positions (wallets in the group "mine") now and 24 h before, the
          day's liquidations and alerts, the watched wallets' alerts and the credits. The app
          sends it to your alert channels at the time set in Settings ("Daily digest at").`;

/** `tidewatch digest --now`: the digest's title and message, from the store alone. */
export function digestCommand(argv: string[]): number {
  const o = parse(argv, {
    now: { type: 'boolean' },
    'data-dir': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (o.help) {
    console.log(DIGEST_USAGE);
    return 0;
  }
  if (!o.now)
    throw new UsageError(
      'digest prints the digest now: give --now (the app sends it daily at the time set in Settings)',
    );
  const dir = o['data-dir'] ?? DEFAULT_DATA_DIR;
  if (!existsSync(join(dir, STORE_FILE))) {
    console.error(
      `tidewatch: no Tidewatch store in ${dir} yet. Watch a wallet in the app (or serve) first, or give --data-dir where it keeps its data.`,
    );
    return 1;
  }
  const store = Store.open(dir);
  try {
    const settings = new SettingsService(store.settings, new MemorySecretStore()).get();
    // The Demo network bills nothing; elsewhere, the counts the app's meter kept.
    const credits = (): ReturnType<CreditMeter['usage']> | null =>
      settings.network === 'demo'
        ? null
        : new CreditMeter({
            load: () => store.settings.get<CreditCounts>(CREDITS_KEY),
            save: () => {},
            budget: () => monthlyBudgetOf(settings),
            events: { emit: () => {} },
          }).usage();
    // On the clock of the digest's zone, as the app sends it (Settings digestZone; the machine's where none is kept).
    const { title, message } = digestText(
      gatherDigest(storeDigestSources(store, credits), Date.now()),
      settings.digestZone ?? undefined,
    );
    console.log(`${title}\n\n${message}`);
    return 0;
  } finally {
    store.close();
  }
}

import type { ServiceClient } from '../client/service-client';
import { loadAssetBook, type AssetBook } from './risk-watcher';

/**
 * The asset book (pools, decimals, margin-pool assets) of the current service, loaded once and
 * forgotten when the service changes. `load()` waits for it (risk refresh, alerts); `now()` never
 * waits (queries): it answers what is loaded and starts loading in the background.
 */
export class AssetBookCache {
  private book: AssetBook | undefined;
  private loading: Promise<AssetBook> | undefined;

  constructor(
    private readonly client: () => ServiceClient,
    /** Whether loading makes sense now (a service is configured, the monitor is open). */
    private readonly canLoad: () => boolean,
  ) {}

  peek(): AssetBook | undefined {
    return this.book;
  }

  load(): Promise<AssetBook> {
    if (this.book) return Promise.resolve(this.book);
    this.loading ??= loadAssetBook(this.client())
      .then((b) => (this.book ??= b))
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  now(): AssetBook | undefined {
    if (!this.book && !this.loading && this.canLoad()) this.load().catch(() => undefined);
    return this.book;
  }

  reset(): void {
    this.book = undefined;
  }
}

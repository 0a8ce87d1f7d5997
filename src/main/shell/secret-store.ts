import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SafeStorage } from 'electron';
import type { KeyProtection, SecretStore } from '../core/settings';

/** The API key's file; the stream keys (client/stream-keys.ts, as JSON) have their own. */
export const API_KEY_FILE = 'api-key.bin';
export const STREAM_KEYS_FILE = 'stream-keys.bin';
/** The alert channels saved in Settings (bot tokens, passwords, webhook URLs), one JSON document. */
export const NOTIFY_CHANNELS_FILE = 'alert-channels.bin';

/**
 * A secret (the API key, or the stream keys) encrypted with Electron's safeStorage (the async API Electron 45 recommends), in
 * the user data folder. It is decrypted once, in main, and kept there: nothing returns it to the
 * renderer. On Linux without a keyring safeStorage falls back to `basic_text`, which Settings
 * reports as not protected.
 */
export class SafeStorageSecretStore implements SecretStore {
  private value: string | null = null;
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    private readonly safe: SafeStorage,
    private readonly dir: string,
    private readonly platform: NodeJS.Platform,
    private readonly log: (line: string) => void,
    private readonly file: string,
    /** What the user calls it, for what a failure says: "API key", "stream keys". */
    private readonly what: string,
  ) {}

  static async open(
    safe: SafeStorage,
    userDataDir: string,
    platform: NodeJS.Platform = process.platform,
    log: (line: string) => void = () => {},
    file: { name: string; what: string } = { name: API_KEY_FILE, what: 'API key' },
  ): Promise<SafeStorageSecretStore> {
    const store = new SafeStorageSecretStore(safe, userDataDir, platform, log, file.name, file.what);
    await store.load();
    return store;
  }

  private async load(): Promise<void> {
    let encrypted: Buffer;
    try {
      encrypted = await readFile(join(this.dir, this.file));
    } catch {
      return; // no key saved
    }
    try {
      const { result, shouldReEncrypt } = await this.safe.decryptStringAsync(encrypted);
      this.value = result;
      if (shouldReEncrypt) this.persist(result);
    } catch (err) {
      this.log(
        `The saved ${this.what} could not be decrypted (${(err as Error).message}); enter it again in Settings.`,
      );
    }
  }

  get(): string | null {
    return this.value;
  }

  set(value: string | null): void {
    this.value = value;
    this.persist(value);
  }

  /** Writes happen in order; a failure is logged and the key stays usable for this run. */
  private persist(value: string | null): void {
    this.writing = this.writing
      .then(async () => {
        const file = join(this.dir, this.file);
        if (value === null) {
          await rm(file, { force: true });
          return;
        }
        const encrypted = await this.safe.encryptStringAsync(value);
        await writeFile(file, encrypted, { mode: 0o600 });
        await chmod(file, 0o600);
      })
      .catch((err: Error) =>
        this.log(`The ${this.what} could not be saved (${err.message}); it works until Tidewatch quits.`),
      );
  }

  flushed(): Promise<void> {
    return this.writing;
  }

  protection(): KeyProtection {
    if (this.platform === 'linux' && this.safe.getSelectedStorageBackend() === 'basic_text') return 'plain-text';
    return 'os-keyring';
  }
}

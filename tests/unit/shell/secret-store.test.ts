import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SafeStorageSecretStore, STREAM_KEYS_FILE } from '../../../src/main/shell/secret-store';
import { tempDir } from '../../support/monitor';

describe('the API key at rest', () => {
  // A reversible stand-in for the OS encryption.
  const safe = (backend = 'gnome_libsecret') =>
    ({
      encryptStringAsync: async (s: string) => Buffer.from(s, 'utf8').map((b) => b ^ 0x5a),
      decryptStringAsync: async (b: Buffer) => ({
        result: Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
        shouldReEncrypt: false,
      }),
      getSelectedStorageBackend: () => backend,
    }) as any;

  it('round-trips through safeStorage into the user data folder, never in clear text', async () => {
    const d = tempDir();
    const a = await SafeStorageSecretStore.open(safe(), d.dir, 'linux');
    expect(a.get()).toBeNull();
    a.set('sk-live-SECRET-123');
    await a.flushed();
    const onDisk = readFileSync(join(d.dir, 'api-key.bin'));
    expect(onDisk.toString('utf8')).not.toContain('SECRET');
    const b = await SafeStorageSecretStore.open(safe(), d.dir, 'linux');
    expect(b.get()).toBe('sk-live-SECRET-123');
    expect(b.protection()).toBe('os-keyring');
    b.set(null);
    await b.flushed();
    expect((await SafeStorageSecretStore.open(safe(), d.dir, 'linux')).get()).toBeNull();
    d.remove();
  });

  it('keeps the stream keys in a file of their own, encrypted the same way, beside the API key', async () => {
    const d = tempDir();
    const file = { name: STREAM_KEYS_FILE, what: 'stream keys' };
    const api = await SafeStorageSecretStore.open(safe(), d.dir, 'linux');
    const streams = await SafeStorageSecretStore.open(safe(), d.dir, 'linux', () => {}, file);
    api.set('sk-live-SECRET-123');
    streams.set(JSON.stringify({ all: 'STREAM-SECRET-9', pools: { SUI_USDC: 'POOL-SECRET-7' } }));
    await Promise.all([api.flushed(), streams.flushed()]);
    const onDisk = readFileSync(join(d.dir, STREAM_KEYS_FILE)).toString('utf8');
    expect(onDisk).not.toMatch(/SECRET/);
    expect((await SafeStorageSecretStore.open(safe(), d.dir, 'linux')).get()).toBe('sk-live-SECRET-123');
    expect(JSON.parse((await SafeStorageSecretStore.open(safe(), d.dir, 'linux', () => {}, file)).get()!)).toEqual({
      all: 'STREAM-SECRET-9',
      pools: { SUI_USDC: 'POOL-SECRET-7' },
    });
    d.remove();
  });

  it('reports basic_text on Linux as not protected by a keyring', async () => {
    const d = tempDir();
    expect((await SafeStorageSecretStore.open(safe('basic_text'), d.dir, 'linux')).protection()).toBe('plain-text');
    expect((await SafeStorageSecretStore.open(safe('basic_text'), d.dir, 'darwin')).protection()).toBe('os-keyring');
    d.remove();
  });
});

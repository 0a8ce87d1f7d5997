import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ARGV_WARNING, readApiKey } from '../../../src/cli/api-key';
import { tempDir } from '../../support/monitor';

describe('the API key on the command line is never needed', () => {
  it('comes from TIDEWATCH_API_KEY without a warning', async () => {
    const warnings: string[] = [];
    expect(await readApiKey({}, { env: { TIDEWATCH_API_KEY: ' k-env ' }, warn: (l) => warnings.push(l) })).toBe(
      'k-env',
    );
    expect(warnings).toEqual([]);
  });

  it('comes from --api-key-file, warning when others can read the file', async () => {
    const d = tempDir();
    try {
      const file = join(d.dir, 'key');
      writeFileSync(file, 'k-file\n');
      chmodSync(file, 0o600);
      const warnings: string[] = [];
      expect(await readApiKey({ 'api-key-file': file }, { env: {}, warn: (l) => warnings.push(l) })).toBe('k-file');
      expect(warnings).toEqual([]);
      chmodSync(file, 0o644);
      expect(await readApiKey({ 'api-key-file': file }, { env: {}, warn: (l) => warnings.push(l) })).toBe('k-file');
      expect(warnings[0]).toMatch(/can be read by other users \(mode 644\); run `chmod 600 /);
      writeFileSync(file, '\n');
      await expect(readApiKey({ 'api-key-file': file }, { env: {}, warn: () => {} })).rejects.toThrow(/is empty/);
      await expect(readApiKey({ 'api-key-file': join(d.dir, 'missing') }, { env: {} })).rejects.toThrow(
        /cannot read --api-key-file .*ENOENT/,
      );
    } finally {
      d.remove();
    }
  });

  it('--api-key still works, with a warning; so does a key bin/tidewatch.js moved off its command line', async () => {
    const warnings: string[] = [];
    expect(await readApiKey({ 'api-key': 'k-argv' }, { env: {}, warn: (l) => warnings.push(l) })).toBe('k-argv');
    expect(
      await readApiKey(
        {},
        { env: { TIDEWATCH_API_KEY: 'k-moved', TIDEWATCH_KEY_FROM_ARGV: '1' }, warn: (l) => warnings.push(l) },
      ),
    ).toBe('k-moved');
    expect(warnings).toEqual([ARGV_WARNING, ARGV_WARNING]);
    expect(ARGV_WARNING).toMatch(
      /every local user can read it \(ps, \/proc\)\. Use TIDEWATCH_API_KEY=… or --api-key-file PATH instead/,
    );
  });

  it('is asked for on a terminal, without echoing it', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stderr = new PassThrough();
    let shown = '';
    stderr.on('data', (d) => (shown += d));
    const key = readApiKey({}, { env: {}, prompt: true, stdin, stderr });
    stdin.write('k-typed\n');
    expect(await key).toBe('k-typed');
    expect(shown).toBe('API key: \n');
    // Not a terminal: no prompt, no key.
    expect(await readApiKey({}, { env: {}, prompt: true, stdin: new PassThrough(), stderr })).toBeUndefined();
  });
});

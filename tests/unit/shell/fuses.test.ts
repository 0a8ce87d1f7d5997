import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('Electron fuses', () => {
  it('are flipped at package time (electron-builder.yml electronFuses)', () => {
    const yml = readFileSync(join(__dirname, '../../../electron-builder.yml'), 'utf8');
    const fuses = Object.fromEntries(
      [...yml.matchAll(/^ {2}(\w+): (true|false)$/gm)].map((m) => [m[1], m[2] === 'true']),
    );
    expect(fuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});

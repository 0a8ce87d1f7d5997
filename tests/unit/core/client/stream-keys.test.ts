import { describe, expect, it } from 'vitest';
import { readStreamKeys } from '../../../../src/cli/api-key';
import { UsageError } from '../../../../src/cli/args';
import { ServiceHttp } from '../../../../src/main/core/client/http';
import {
  decodeStreamKeys,
  encodeStreamKeys,
  parsePoolKeys,
  streamKeyFor,
  withStreamKey,
} from '../../../../src/main/core/client/stream-keys';

describe('stream keys', () => {
  const keys = { all: 'S-all', pools: { DEEP_USDC: 'S-deep' } };

  it('a pool stream uses its own key, else the stream key, else the api-key', () => {
    const http = new ServiceHttp({
      baseUrl: 'http://svc',
      streamUrl: 'http://streams',
      apiKey: 'A-rest',
      streamKeys: keys,
    });
    expect(http.url('/dex/SUI_USDC/trades')).toContain('api-key=A-rest');
    expect(http.url('/dex-margin/manager-updates', {}, 'stream')).toBe(
      'http://streams/dex-margin/manager-updates?api-key=S-all',
    );
    expect(http.url('/dex/DEEP_USDC/live-trades', {}, 'stream', 'DEEP_USDC')).toContain('api-key=S-deep');
    expect(http.url('/dex/SUI_USDC/live-trades', {}, 'stream', 'SUI_USDC')).toContain('api-key=S-all');
    const plain = new ServiceHttp({ baseUrl: 'http://svc', apiKey: 'A-rest' });
    expect(plain.url('/dex-margin/manager-updates', {}, 'stream')).toContain('api-key=A-rest');
    expect(streamKeyFor({ pools: { X: 'x' } }, 'Y')).toBeUndefined();
    // Every key is redacted, in every form the redaction knows.
    expect(http.redact('a S-all b S-deep c A-rest')).toBe('a *** b *** c ***');
    expect(http.streamKeyName('pool:DEEP_USDC')).toBe("DEEP_USDC's stream key");
    expect(http.streamKeyName('margin')).toBe('the stream key');
    expect(plain.streamKeyName('pool:DEEP_USDC')).toBe('the API key');
  });

  it('round-trips what the secret store keeps; an unreadable value is no keys', () => {
    expect(decodeStreamKeys(encodeStreamKeys(keys))).toEqual(keys);
    expect(encodeStreamKeys({})).toBeNull();
    expect(decodeStreamKeys('not json')).toEqual({});
    expect(decodeStreamKeys(JSON.stringify({ all: 3, pools: { 'bad name': 'k', OK_POOL: 'k2' } }))).toEqual({
      pools: { OK_POOL: 'k2' },
    });
    expect(withStreamKey(keys, 'DEEP_USDC', null)).toEqual({ all: 'S-all', pools: {} });
    expect(withStreamKey(keys, null, null)).toEqual({ pools: { DEEP_USDC: 'S-deep' } });
  });

  it('reads the command line and environment, refusing what is not POOL=KEY', () => {
    const warned: string[] = [];
    const warn = (l: string) => warned.push(l);
    expect(readStreamKeys({}, { env: {} })).toEqual({});
    expect(
      readStreamKeys(
        {},
        { env: { TIDEWATCH_STREAM_KEY: ' s1 ', TIDEWATCH_POOL_STREAM_KEYS: 'SUI_USDC=a, DEEP_USDC=b' }, warn },
      ),
    ).toEqual({ all: 's1', pools: { SUI_USDC: 'a', DEEP_USDC: 'b' } });
    expect(warned).toEqual([]);
    expect(readStreamKeys({ 'stream-key': 'argv-key' }, { env: {}, warn })).toEqual({ all: 'argv-key' });
    expect(warned[0]).toMatch(
      /--stream-key puts the key on the command line.*TIDEWATCH_STREAM_KEY=… or --stream-key-file PATH/,
    );
    expect(() => readStreamKeys({}, { env: { TIDEWATCH_POOL_STREAM_KEYS: 'SUI_USDC' } })).toThrow(UsageError);
    expect(() => parsePoolKeys('SUI USDC=k', 'X')).toThrow(/not POOL=KEY/);
    expect(() => parsePoolKeys('SUI_USDC=', 'X')).toThrow(/empty/);
    // The message names the variable, never the key.
    expect(() => readStreamKeys({}, { env: { TIDEWATCH_STREAM_KEY: 'two words' } })).toThrow(
      /TIDEWATCH_STREAM_KEY contains spaces/,
    );
  });
});

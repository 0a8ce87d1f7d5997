import { readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { checkKey, parsePoolKeys, type StreamKeys } from '../main/core/client/stream-keys';
import { UsageError } from './args';

/** Environment variable for the key (never on a command line, where `ps` shows it). */
export const API_KEY_ENV = 'TIDEWATCH_API_KEY';
/** Set by `bin/tidewatch.js` when it moved a `--api-key` from its command line into the environment. */
export const KEY_MOVED_ENV = 'TIDEWATCH_KEY_FROM_ARGV';

/** The stream key (streams use it instead of the api-key), and per-pool ones as POOL=KEY,POOL=KEY. */
export const STREAM_KEY_ENV = 'TIDEWATCH_STREAM_KEY';
export const POOL_STREAM_KEYS_ENV = 'TIDEWATCH_POOL_STREAM_KEYS';
/** Set by `bin/tidewatch.js` when it moved a `--stream-key` from its command line into the environment. */
export const STREAM_KEY_MOVED_ENV = 'TIDEWATCH_STREAM_KEY_FROM_ARGV';

/** What a key given on the command line earns (`--api-key`, `--stream-key`). */
export const argvWarning = (option: string, env: string): string =>
  `tidewatch: warning: ${option} puts the key on the command line, where every local user can read it (ps, /proc). Use ${env}=… or ${option}-file PATH instead.`;
export const ARGV_WARNING = argvWarning('--api-key', API_KEY_ENV);

/**
 * The key, from (in order) `--api-key` (with a warning), `--api-key-file PATH` (its mode checked),
 * `TIDEWATCH_API_KEY`, or a prompt without echo when stdin is a terminal. Undefined when none.
 */
export async function readApiKey(
  o: { 'api-key'?: string; 'api-key-file'?: string },
  io: {
    env?: NodeJS.ProcessEnv;
    warn?: (line: string) => void;
    prompt?: boolean;
    stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
    stderr?: NodeJS.WritableStream;
  } = {},
): Promise<string | undefined> {
  const env = io.env ?? process.env;
  const warn = io.warn ?? ((line: string) => console.error(line));
  if (o['api-key'] !== undefined) {
    warn(ARGV_WARNING);
    return nonEmpty(o['api-key'], '--api-key');
  }
  if (env[KEY_MOVED_ENV] === '1' && env[API_KEY_ENV]) {
    warn(ARGV_WARNING);
    return nonEmpty(env[API_KEY_ENV]!, '--api-key');
  }
  if (o['api-key-file'] !== undefined) return fromFile(o['api-key-file'], warn, '--api-key-file');
  if (env[API_KEY_ENV]) return nonEmpty(env[API_KEY_ENV]!, API_KEY_ENV);
  const stdin = io.stdin ?? process.stdin;
  if (io.prompt && stdin.isTTY) return promptHidden('API key: ', stdin, io.stderr ?? process.stderr);
  return undefined;
}

function nonEmpty(key: string, from: string): string {
  const k = key.trim();
  if (k.length === 0) throw new UsageError(`${from} is empty`);
  if (k.length > 512) throw new UsageError(`${from} is longer than 512 characters`);
  return k;
}

/**
 * The stream keys (client/stream-keys.ts): the stream key from `--stream-key` (with a warning),
 * `--stream-key-file PATH` or TIDEWATCH_STREAM_KEY; per-pool keys from TIDEWATCH_POOL_STREAM_KEYS
 * (`SUI_USDC=KEY,DEEP_USDC=KEY`). None given: streams use the api-key.
 */
export function readStreamKeys(
  o: { 'stream-key'?: string; 'stream-key-file'?: string },
  io: { env?: NodeJS.ProcessEnv; warn?: (line: string) => void } = {},
): StreamKeys {
  const env = io.env ?? process.env;
  const warn = io.warn ?? ((line: string) => console.error(line));
  const keys: StreamKeys = {};
  const fromArgv = o['stream-key'] ?? (env[STREAM_KEY_MOVED_ENV] === '1' ? env[STREAM_KEY_ENV] : undefined);
  try {
    if (fromArgv !== undefined) {
      warn(argvWarning('--stream-key', STREAM_KEY_ENV));
      keys.all = checkKey(fromArgv, '--stream-key');
    } else if (o['stream-key-file'] !== undefined) keys.all = fromFile(o['stream-key-file'], warn, '--stream-key-file');
    else if (env[STREAM_KEY_ENV]) keys.all = checkKey(env[STREAM_KEY_ENV]!, STREAM_KEY_ENV);
    if (env[POOL_STREAM_KEYS_ENV]) keys.pools = parsePoolKeys(env[POOL_STREAM_KEYS_ENV]!, POOL_STREAM_KEYS_ENV);
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(err.message);
    throw err;
  }
  return keys;
}

function fromFile(path: string, warn: (line: string) => void, option: string): string {
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new UsageError(`${option} ${path} is not a file`);
    if (st.size > 4096) throw new UsageError(`${option} ${path} is larger than 4 KB: it should hold the key alone`);
    // Group or others can read it: say so (a key file is like an SSH key).
    if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
      warn(
        `tidewatch: warning: ${path} can be read by other users (mode ${(st.mode & 0o777).toString(8)}); run \`chmod 600 ${path}\``,
      );
    }
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `cannot read ${option} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return nonEmpty(text.split(/\r?\n/)[0] ?? '', `${option} ${path}`);
}

/** A line read from the terminal without echoing it. */
function promptHidden(question: string, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<string> {
  output.write(question);
  const muted = new Writable({ write: (_c, _e, done) => done() });
  const rl = createInterface({ input, output: muted, terminal: true });
  return new Promise((resolve, reject) => {
    rl.once('line', (line) => {
      rl.close();
      output.write('\n');
      try {
        resolve(nonEmpty(line, 'the API key'));
      } catch (err) {
        reject(err as Error);
      }
    });
    rl.once('SIGINT', () => {
      rl.close();
      reject(new UsageError('no API key given'));
    });
  });
}

import { readFileSync } from 'node:fs';
import { redact } from '../main/core/client/errors';
import { testChannels } from '../main/core/notify/channel-test';
import { NotifyConfigError, parseNotifyConfig, type NotifyConfig } from '../main/core/notify/config';
import { sendOn } from '../main/core/notify/senders';
import { parse, UsageError } from './args';

export const NOTIFY_TEST_USAGE = `tidewatch notify-test: send a test message on the alert channels

  tidewatch notify-test [--notify-config FILE] [--channel NAME]

  Sends "Tidewatch test message" on every channel of the notify config (JSON or YAML; the
  file serve takes with --notify-config, or TIDEWATCH_NOTIFY_CONFIG), or on the one named, and
  says for each whether it was taken and, if not, why in plain words (a wrong token, a chat not
  found, a refused SMTP login, a host that cannot be reached). Exit code 1 when one failed.
  Channels saved in the desktop app's Settings are tested there ("Send a test").

  --notify-config FILE   the channels (default: $TIDEWATCH_NOTIFY_CONFIG)
  --channel NAME         only this channel (its name, or its type when it has no name)`;

/** The notify config file named on the command line (or by TIDEWATCH_NOTIFY_CONFIG), parsed; null when none is named. */
export function notifyFileOption(
  path: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { path: string; config: NotifyConfig; secrets: string[] } | null {
  const file = path ?? env['TIDEWATCH_NOTIFY_CONFIG'];
  if (file === undefined || file === '') return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `the notify config ${file} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? 'unreadable')})`,
    );
  }
  try {
    return { path: file, ...parseNotifyConfig(text, env, file) };
  } catch (err) {
    if (err instanceof NotifyConfigError) throw new UsageError(err.message);
    throw err;
  }
}

export async function notifyTestCommand(args: string[]): Promise<number> {
  const o = parse(args, {
    'notify-config': { type: 'string' },
    channel: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (o.help) {
    console.log(NOTIFY_TEST_USAGE);
    return 0;
  }
  const file = notifyFileOption(o['notify-config']);
  if (!file) throw new UsageError('name the channels: --notify-config FILE (or TIDEWATCH_NOTIFY_CONFIG)');
  const channels = file.config.channels.filter(
    (c) => c.type !== 'desktop' && (o.channel === undefined || c.name === o.channel),
  );
  if (channels.length === 0) {
    throw new UsageError(
      o.channel === undefined
        ? `${file.path} names no channel to test`
        : `${file.path} has no channel named "${o.channel}" (it has: ${file.config.channels.map((c) => c.name).join(', ')})`,
    );
  }
  const results = await testChannels(
    channels,
    (c, d) => sendOn(c, d),
    (t) => redact(t, ...file.secrets),
  );
  for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.channel} (${r.type}, ${r.ms} ms): ${r.message}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(
    failed === 0
      ? `All ${results.length} channel${results.length === 1 ? '' : 's'} took the test message.`
      : `${failed} of ${results.length} failed.`,
  );
  return failed === 0 ? 0 : 1;
}

/**
 * The shells' last resort. An error nobody handled is logged and survived, and shown in the
 * status (a tray monitor that dies of one bad answer misses the liquidation it exists for).
 * Root causes are fixed where they are; this net only catches what slipped through.
 *
 * With TIDEWATCH_STRICT=1 (the tests set it for every process they start) an unhandled error
 * ends the process with exit code 70, so a test can never pass by leaning on the net.
 */
export function installSafetyNet(opts: {
  log(line: string): void;
  onError(err: unknown): void;
  strict?: boolean;
}): () => void {
  const strict = opts.strict ?? process.env['TIDEWATCH_STRICT'] === '1';
  const handle = (kind: string) => (err: unknown) => {
    const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
    opts.log(`${kind} (survived): ${text}`);
    if (strict) {
      opts.log('TIDEWATCH_STRICT=1: exiting on an unhandled error');
      process.exit(70);
    }
    try {
      opts.onError(err);
    } catch {
      // the net must not throw
    }
  };
  const onRejection = handle('unhandled rejection');
  const onException = handle('uncaught exception');
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

import { UsageError } from './args';
import { DIGEST_USAGE, digestCommand } from './digest-command';
import { DOCTOR_USAGE, doctorCommand } from './doctor-command';
import { EXPORT_USAGE, exportCommand } from './export-command';
import { NOTIFY_TEST_USAGE, notifyTestCommand } from './notify-command';
import { RISK_USAGE, riskCommand } from './risk-command';
import { SERVE_USAGE, serveCommand } from './serve-command';
import { SIM_USAGE, simCommand } from './sim-command';

const USAGE = `tidewatch: a desktop monitor for wallets, NFTs, markets and margin positions

  tidewatch serve ...    the monitor without Electron: UI and API on 127.0.0.1 (serve --help)
  tidewatch export ...   print what the store holds: margin-events, liquidations, trades, alerts, risk
  tidewatch doctor ...   check the key, every endpoint family, both streams and the store
  tidewatch risk ...     the watched positions under a price shock (risk --shock SUI=-15%)
  tidewatch digest --now the daily digest of your positions, alerts and credits, printed now
  tidewatch notify-test  send a test message on the alert channels (--notify-config FILE)
  tidewatch sim ...      run the Demo network (the reference data service); see tidewatch sim --help

Run the desktop app with \`npm start\`.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'sim':
        return await simCommand(rest);
      case 'serve':
        return await serveCommand(rest);
      case 'export':
        return exportCommand(rest);
      case 'doctor':
        return await doctorCommand(rest);
      case 'risk':
        return await riskCommand(rest);
      case 'notify-test':
        return await notifyTestCommand(rest);
      case 'digest':
        return digestCommand(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`tidewatch: ${err.message}\n`);
      const usage: Record<string, string> = {
        sim: SIM_USAGE,
        serve: SERVE_USAGE,
        export: EXPORT_USAGE,
        doctor: DOCTOR_USAGE,
        risk: RISK_USAGE,
        'notify-test': NOTIFY_TEST_USAGE,
        digest: DIGEST_USAGE,
      };
      console.error(usage[command ?? ''] ?? USAGE);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));

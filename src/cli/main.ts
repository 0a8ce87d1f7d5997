import { UsageError } from './args';
import { SIM_USAGE, simCommand } from './sim-command';

const USAGE = `tidewatch: a desktop monitor for wallets, NFTs, markets and margin positions

  tidewatch sim ...      run the Demo network (the reference data service); see tidewatch sim --help

Run the desktop app with \`npm start\`.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'sim':
        return await simCommand(rest);
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
      console.error(command === 'sim' ? SIM_USAGE : USAGE);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));

/**
 * Memory of the Demo network over time: `tidewatch sim --speed N` in its own process, with a
 * margin stream and a pool stream attached (as the app keeps them), RSS sampled every minute.
 *   npm run soak:sim -- [minutes=10] [speed=60]
 */
import { rssOf, spawnSim } from './support';

const minutes = Number(process.argv[2] ?? 10);
const speed = Number(process.argv[3] ?? 60);
const sim = await spawnSim(['--api-key', 'soak', '--speed', String(speed)]);
const streams = ['/dex-margin/manager-updates?api-key=soak&last-id=0', '/dex/SUI_USDC/live-trades?api-key=soak'].map(
  async (path) => {
    const res = await fetch(`${sim.url}${path}`);
    let bytes = 0;
    for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
    return bytes;
  },
);
void streams;
const mb = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MiB`;
console.log(`soak: speed ${speed}, ${minutes} min, pid ${sim.child.pid}`);
console.log(`t=0 min  rss ${mb(rssOf(sim.child.pid!))}`);
for (let m = 1; m <= minutes; m++) {
  await new Promise((r) => setTimeout(r, 60_000));
  const loans = await fetch(`${sim.url}/dex-margin/liquidations?api-key=soak&perPage=1`).then((r) => r.status);
  console.log(`t=${m} min  rss ${mb(rssOf(sim.child.pid!))}  (service answering: ${loans})`);
}
await sim.stop();
process.exit(0);

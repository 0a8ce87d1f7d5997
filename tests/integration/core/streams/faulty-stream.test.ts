import { afterAll, describe, expect, it } from 'vitest';
import { NAMING_PROFILES } from '../../../../src/main/core/client/naming';
import { Store } from '../../../../src/main/core/store/store';
import { MarginStream } from '../../../../src/main/core/streams/margin-stream';
import { StreamSupervisor } from '../../../../src/main/core/streams/supervisor';
import { FaultyStreamServer } from '../../../support/faulty-stream-server';
import { until } from '../../../support/monitor';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * The margin stream (fetch + eventsource-parser under the supervisor: docs/service.md, The stream
 * transport) on an unreliable server, at production backoff: refused connections, cuts
 * mid-message, repeats, named events, a message that is not JSON. What is stored must be exactly
 * what was sent.
 */
describe('the margin stream on an unreliable server', () => {
  it('stores exactly what was sent through refusals and cuts: nothing lost, nothing twice, named and broken events kept', async () => {
    const faulty = new FaultyStreamServer(7);
    const url = await faulty.listen();
    const store = Store.openInMemory();
    const sup = new StreamSupervisor({ budget: 1, redact: (s) => s });
    cleanups.push(
      () => faulty.close(),
      () => store.close(),
      () => sup.stopAll(),
    );
    const ingest = new MarginStream(
      {
        repo: store.margin,
        naming: () => NAMING_PROFILES.spec,
        urlFor: (lastId) => `${url}/dex-margin/manager-updates?last-id=${encodeURIComponent(lastId)}`,
        firstStart: () => '0',
      },
      { received() {}, committed() {}, storeChanged() {}, opened() {} },
    );
    faulty.produce(3);
    sup.add(ingest);
    await until(() => faulty.refused + faulty.cut >= 6, 60_000, 'faults');
    faulty.stopProducing();
    const sent = faulty.log.map((e) => e.id);
    await until(() => store.margin.count() >= sent.length, 30_000, 'catch up');
    const stored = [...store.margin.iterate()];
    expect(stored.map((e) => e.id)).toEqual(sent);
    // Every 4th message was sent with an `event:` name, every 50th (offset 7) was not JSON.
    const broken = stored.filter((e) => !e.valid);
    expect(broken.length).toBeGreaterThan(0);
    expect(broken.every((e) => /not JSON/.test(e.problem ?? ''))).toBe(true);
    console.log(
      `${faulty.connections} connections, ${faulty.refused} refused, ${faulty.cut} cut; ${stored.length} stored = sent`,
    );
  }, 120_000);
});

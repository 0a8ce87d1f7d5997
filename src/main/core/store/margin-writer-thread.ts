/**
 * The margin writer's thread (store/margin-writer.ts): its own connection to the store, the margin
 * stream's batches committed with their cursor in the order they come. After a failed commit it writes
 * nothing more (later batches are answered `skipped`) until told to resume, so nothing after the
 * failed batch is ever acknowledged before it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { configure } from './database';
import { MarginEventRepo, type IncomingMarginEvent } from './margin-events';
import { InlineCommitter, StoreWriteError } from './margin-committer';

export interface WriterData {
  file: string;
  autocheckpointPages: number;
}

export type WriterRequest =
  | { kind: 'commit'; n: number; events: IncomingMarginEvent[]; now: number }
  | { kind: 'resume' }
  | { kind: 'owners'; managers: string[] }
  | { kind: 'pragma'; text: string }
  | { kind: 'close' };

export type WriterReply =
  | { kind: 'ready' }
  | { kind: 'committed'; n: number; fresh: number[] }
  | { kind: 'failed'; n: number; reason: string; code: string; message: string }
  | { kind: 'skipped'; n: number; reason: string }
  | { kind: 'closed' };

const port = parentPort!;
const post = (m: WriterReply): void => port.postMessage(m);
const { file, autocheckpointPages } = workerData as WriterData;
const db = new Database(file, { fileMustExist: true });
configure(db);
db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
// The writer's hot pages are the indexes' right edges (one per active manager, owner and type):
// 8 MB holds ~2,000 managers' (others come from the OS's file cache). A larger cache raised a
// catch-up's peak memory at the same ingest rate (docs/operations.md, Memory, has the figures).
db.pragma('cache_size = -8192');
const repo = new MarginEventRepo(db);
// The same rule as on the main thread: after a failed commit, nothing more until `resume`.
const committer = new InlineCommitter(repo);

port.on('message', (m: WriterRequest) => {
  switch (m.kind) {
    case 'commit': {
      try {
        const fresh = new Set(committer.commitNow(m.events, m.now));
        const at: number[] = [];
        m.events.forEach((e, i) => fresh.has(e) && at.push(i));
        return post({ kind: 'committed', n: m.n, fresh: at });
      } catch (err) {
        if (err instanceof StoreWriteError) return post({ kind: 'skipped', n: m.n, reason: err.reason });
        const e = err as { code?: unknown; message?: unknown };
        return post({
          kind: 'failed',
          n: m.n,
          reason: committer.reason ?? '',
          code: String(e.code ?? ''),
          message: String(e.message ?? err),
        });
      }
    }
    case 'resume':
      committer.resume();
      return;
    case 'owners':
      try {
        repo.ownersNotedElsewhere(m.managers);
      } catch {
        // the rows keep "owner unknown" until the next time the owner is noted; the stream's writes report the store's trouble
      }
      return;
    case 'pragma':
      try {
        db.pragma(m.text);
      } catch {
        // a setting this connection refuses stays as it was; the app's connection reports its own
      }
      return;
    case 'close':
      db.close();
      post({ kind: 'closed' });
      port.close();
      return;
  }
});
post({ kind: 'ready' });

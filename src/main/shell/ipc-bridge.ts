import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { isContractMethod, isTopic, type TidewatchApi, type Topic } from '../../shared/contract';
import { CANCELLED, INTERNAL, IPC, toWire, type WireAnswer } from '../../shared/wire';
import { isTrustedSender } from './sender-check';

/**
 * The contract over Electron IPC: one invoke channel, one push channel (plus subscribe and
 * unsubscribe). Every message is checked for its sender frame and its arguments.
 */
export class IpcBridge {
  private readonly subscriptions = new Map<number, Map<Topic, () => void>>();
  /** Calls in flight that the page may cancel, by `<webContents id>:<call id>`. */
  private readonly inflight = new Map<string, AbortController>();

  constructor(
    private readonly api: TidewatchApi,
    private readonly allowedOrigins: () => readonly string[],
    private readonly log: (line: string) => void = () => {},
    /** Lets the shell act on what only it can do (the login item) after a command succeeded. */
    private readonly afterInvoke: (method: string, result: unknown) => void = () => {},
  ) {}

  register(ipcMain: IpcMain): void {
    ipcMain.handle(IPC.invoke, (e, method: unknown, args: unknown, callId: unknown) =>
      this.invoke(e, method, args, callId),
    );
    ipcMain.on(IPC.cancel, (e, callId: unknown) => this.cancel(e, callId));
    ipcMain.on(IPC.subscribe, (e, topic: unknown) => this.subscribe(e, topic));
    ipcMain.on(IPC.unsubscribe, (e, topic: unknown) => this.unsubscribe(e, topic));
  }

  private trusted(e: IpcMainEvent | IpcMainInvokeEvent): boolean {
    const ok = isTrustedSender(e.senderFrame, this.allowedOrigins());
    if (!ok) this.log(`ipc: refused a message from ${e.senderFrame?.url ?? 'an unknown frame'}`);
    return ok;
  }

  async invoke(e: IpcMainInvokeEvent, method: unknown, args: unknown, callId?: unknown): Promise<WireAnswer> {
    if (!this.trusted(e))
      return { ok: false, error: { kind: 'forbidden', message: 'This frame may not use Tidewatch.' } };
    if (typeof method !== 'string' || !isContractMethod(method)) {
      return {
        ok: false,
        error: { kind: 'bad-argument', message: `There is no contract method "${String(method)}".` },
      };
    }
    const key = validCallId(callId) ? `${e.sender.id}:${callId}` : undefined;
    const cancel = new AbortController();
    if (key) this.inflight.set(key, cancel);
    try {
      const result = await this.api.invoke(method, args as never, { signal: cancel.signal });
      this.afterInvoke(method, result);
      return { ok: true, result };
    } catch (err) {
      if (cancel.signal.aborted) return { ok: false, error: CANCELLED };
      const told = toWire(err);
      if (told) return { ok: false, error: told };
      this.log(`ipc: ${method} failed: ${(err as Error).message}`);
      return { ok: false, error: INTERNAL };
    } finally {
      if (key) this.inflight.delete(key);
    }
  }

  /** The page gave up on a call (its view closed or asked again): stop the work behind it. */
  cancel(e: IpcMainEvent, callId: unknown): void {
    if (!this.trusted(e) || !validCallId(callId)) return;
    this.inflight.get(`${e.sender.id}:${callId}`)?.abort();
  }

  subscribe(e: IpcMainEvent, topic: unknown): void {
    if (!this.trusted(e) || typeof topic !== 'string' || !isTopic(topic)) return;
    const wc: WebContents = e.sender;
    let subs = this.subscriptions.get(wc.id);
    if (!subs) {
      subs = new Map();
      this.subscriptions.set(wc.id, subs);
      wc.once('destroyed', () => this.dropAll(wc.id));
    }
    if (subs.has(topic)) return;
    subs.set(
      topic,
      this.api.subscribe(topic, (payload) => {
        if (!wc.isDestroyed()) wc.send(IPC.push, topic, payload);
      }),
    );
  }

  unsubscribe(e: IpcMainEvent, topic: unknown): void {
    if (!this.trusted(e) || typeof topic !== 'string') return;
    const subs = this.subscriptions.get(e.sender.id);
    subs?.get(topic as Topic)?.();
    subs?.delete(topic as Topic);
  }

  private dropAll(id: number): void {
    for (const off of this.subscriptions.get(id)?.values() ?? []) off();
    this.subscriptions.delete(id);
  }
}

function validCallId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
}

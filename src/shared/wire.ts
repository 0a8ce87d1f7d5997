/**
 * The wire between main and the page, written once for both shells: the desktop's IPC channels
 * (preload <-> main/shell/ipc-bridge) and the web shell's HTTP answers (main/web/server <->
 * renderer/api/web-transport) carry the same answers and the same errors.
 *
 * An error crosses as `WireError` (kind, message, advice: never a stack, never the key) and
 * arrives as an `ApiError` on the page, whichever shell carried it, so the page says the same
 * sentence in both. An Error thrown across Electron's contextBridge loses every property but
 * its message; that is why the preload answers with a `WireAnswer` and the page throws.
 */
import type { ContractInput, ContractMethod, InvokeOptions, PayloadOf, Topic } from './contract';

/** The desktop shell's IPC channel names. */
export const IPC = {
  invoke: 'tidewatch:invoke',
  cancel: 'tidewatch:cancel',
  subscribe: 'tidewatch:subscribe',
  unsubscribe: 'tidewatch:unsubscribe',
  push: 'tidewatch:push',
} as const;

/** A failure as the page may see it: what happened, and what to do about it when main knows. */
export interface WireError {
  kind: string;
  message: string;
  advice?: string;
}

/** What one contract call answers over either shell. */
export type WireAnswer = { ok: true; result: unknown } | { ok: false; error: WireError };

/** An error that knows how it is told to the page (the service's errors, bad arguments). */
export interface ToldError {
  toWire(): WireError;
}

export const CANCELLED: WireError = { kind: 'cancelled', message: 'The request was cancelled.' };

/** Said for anything main did not expect; the details go to main's log, never to the page. */
export const INTERNAL: WireError = {
  kind: 'internal',
  message: 'Tidewatch hit an internal error; it was logged. Retry, and report it if it happens again.',
};

/**
 * An error thrown by a contract call, as the page gets it; undefined for an error main did not
 * expect (the caller logs it and answers INTERNAL).
 */
export function toWire(err: unknown): WireError | undefined {
  if (typeof err !== 'object' || err === null || typeof (err as Partial<ToldError>).toWire !== 'function') {
    return undefined;
  }
  const e = (err as ToldError).toWire();
  return e.advice === undefined ? { kind: e.kind, message: e.message } : e;
}

/** An error answered by main, on the page: the same class whichever shell carried it. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly kind: string,
    message: string,
    readonly advice?: string,
  ) {
    super(message);
  }
}

export function fromWire(e: WireError): ApiError {
  return new ApiError(e.kind, e.message, e.advice);
}

/**
 * What the desktop's preload exposes as `window.tidewatch`: the contract, with each call's
 * answer returned as a value (an error's kind and advice would not survive a throw).
 */
export interface DesktopBridge {
  invoke<M extends ContractMethod>(method: M, args: ContractInput<M>, options?: InvokeOptions): Promise<WireAnswer>;
  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void;
}

/**
 * The wire between main and the page, written once for both shells: the desktop's IPC channels
 * (preload <-> main/shell/ipc-bridge) and the web shell's HTTP answers
 * (main/web/invoke-handler <-> renderer/api/web-transport) carry the same answers and errors.
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

/** What the user should do when the data service cannot be reached, whichever way it failed. */
const SERVICE_UNREACHABLE = 'The service cannot be reached. Showing cached data; it will retry.';
/** Both what happened and all there is to say about a call its caller gave up. */
const CANCELLED_TEXT = 'The request was cancelled.';

/**
 * Every kind of failure the page may be told, with the web shell's HTTP status for it and what
 * the user should do about it: the one table both shells, the client's errors and the page read.
 *
 * `status`: the service's own verdict on a request (400, 404, 429) passes through; the service
 * failing or unreachable is a gateway error (502, 504); the web shell's refusals say what it
 * refused (401, 403, 404, 405). `advice`: the sentence a `ServiceError` carries and the page
 * shows; none where the message itself says what to do (the web shell's refusals, written for the
 * program that sent the request).
 */
/** What to do when the page asks `serve` for something it does not have: they differ in version. */
const VERSION_ADVICE =
  'The page and `tidewatch serve` are of different versions: reload the page, and restart serve if it persists.';

export const WIRE_ERRORS = {
  /** An argument the contract's schema refused (or a body that is not JSON). */
  'bad-argument': { status: 400, advice: 'Correct it and try again.' },
  /** The service refused the request as invalid, or the address was malformed. */
  'bad-request': {
    status: 400,
    advice:
      'The request was refused as invalid: check what was entered (an address is 0x and 64 hex digits) and try again.',
  },
  'not-found': { status: 404, advice: 'Nothing exists under that id or name: check it and try again.' },
  'rate-limited': {
    status: 429,
    advice:
      'The service is rate-limiting this key; requests will resume shortly. Lower the request rate in Settings if it persists.',
  },
  /** The service rejected the API key. */
  auth: { status: 502, advice: 'The service rejected the API key. Check it in Settings.' },
  /** A 403 that speaks of credits, quota or plan: the key is fine, the plan's allowance is used up. */
  quota: {
    status: 502,
    advice:
      "Your plan's credits or quota are used up. Tidewatch stopped asking the service and shows what it has kept; it tries again every 15 minutes. Top up or change the plan, then press Retry now.",
  },
  server: { status: 502, advice: 'The service had an internal error. It will retry.' },
  network: { status: 502, advice: SERVICE_UNREACHABLE },
  timeout: {
    status: 504,
    advice:
      'The service is answering too slowly. An earlier answer is shown where Tidewatch kept one; try again in a minute.',
  },
  'invalid-response': {
    status: 502,
    advice: 'The service answered in an unexpected shape. Check the service URL and naming profile in Settings.',
  },
  /** The caller gave up (its AbortSignal fired): nobody is waiting for an answer. */
  cancelled: { status: 502, advice: CANCELLED_TEXT },
  /** Anything main did not expect: logged in main, never detailed to the page. */
  internal: { status: 500, advice: 'Retry, and report it if it happens again.' },
  /** A frame, Host, Origin or site that may not use Tidewatch. */
  forbidden: { status: 403, advice: 'Open Tidewatch from the link `tidewatch serve` printed, in a tab of its own.' },
  /** No token or session, or a command with the session cookie and no Origin. */
  unauthorized: {
    status: 401,
    advice: 'Open the link `tidewatch serve` printed again: a restarted serve starts a new session.',
  },
  /** An HTTP method the address does not take. */
  method: { status: 405, advice: VERSION_ADVICE },
  'unknown-method': { status: 404, advice: VERSION_ADVICE },
  'unknown-topic': { status: 404, advice: VERSION_ADVICE },
  /** Said by the page itself when `tidewatch serve` does not answer at all (never answered by a shell). */
  unreachable: { status: 502, advice: 'Check that `tidewatch serve` is still running, then retry.' },
  /** Said by the page itself for an HTTP error that came without a WireError (never answered by a shell). */
  http: { status: 502, advice: 'Retry; if it happens again, check the terminal where `tidewatch serve` runs.' },
} as const satisfies Record<string, { status: number; advice: string | undefined }>;

export type WireErrorKind = keyof typeof WIRE_ERRORS;

/** A failure as the page may see it: what happened, and what to do about it when main knows. */
export interface WireError {
  kind: WireErrorKind;
  message: string;
  advice?: string;
}

/** What one contract call answers over either shell. */
export type WireAnswer = { ok: true; result: unknown } | { ok: false; error: WireError };

/** An error that knows how it is told to the page (the service's errors, bad arguments). */
export interface ToldError {
  toWire(): WireError;
}

export const CANCELLED: WireError = { kind: 'cancelled', message: CANCELLED_TEXT };

/** Said for anything main did not expect; the details go to main's log, never to the page. */
export const INTERNAL: WireError = {
  kind: 'internal',
  message: 'Tidewatch hit an internal error; it was logged.',
  advice: WIRE_ERRORS.internal.advice,
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
    readonly kind: WireErrorKind,
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

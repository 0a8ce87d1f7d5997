import type { CancelSignal, ContractResults, TidewatchApi } from '../../../shared/contract';
import { fromWire, type DesktopBridge } from '../../../shared/wire';
import { webTransport } from './web-transport';

declare global {
  interface Window {
    /** Exposed by the desktop shell's preload; absent in a browser. */
    tidewatch?: DesktopBridge;
  }
}

let api: TidewatchApi | undefined;

/** The contract, from the desktop bridge when there is one, else over HTTP to `tidewatch serve`. */
export function useApi(): TidewatchApi {
  api ??= window.tidewatch ? bridged(window.tidewatch) : webTransport();
  return api;
}

/**
 * The contract over the desktop's preload. Its calls answer errors as values (an Error thrown
 * across the contextBridge keeps only its message), thrown here as the web transport throws
 * them. An AbortSignal cannot cross either; a plain object of functions can (they are proxied),
 * and the preload sends a cancel when it fires.
 */
export function bridged(bridge: DesktopBridge): TidewatchApi {
  return {
    invoke: async (method, args, options) => {
      const signal = options?.signal;
      const plain: CancelSignal | undefined = signal && {
        aborted: signal.aborted,
        addEventListener: (type, listener, o) => signal.addEventListener(type, listener, o),
        removeEventListener: (type, listener) => signal.removeEventListener(type, listener),
      };
      const answer = await bridge.invoke(method, args, plain ? { signal: plain } : undefined);
      if (!answer.ok) throw fromWire(answer.error);
      return answer.result as ContractResults[typeof method];
    },
    subscribe: (topic, listener) => bridge.subscribe(topic, listener),
  };
}

/** For component tests. */
export function setApi(a: TidewatchApi): void {
  api = a;
}

export { ApiError } from '../../../shared/wire';

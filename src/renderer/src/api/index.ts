import type { CancelSignal, TidewatchApi } from '../../../shared/contract';
import { webTransport } from './web-transport';

declare global {
  interface Window {
    /** Exposed by the desktop shell's preload; absent in a browser. */
    tidewatch?: TidewatchApi;
  }
}

let api: TidewatchApi | undefined;

/** The contract, from the desktop bridge when there is one, else over HTTP to `tidewatch serve`. */
export function useApi(): TidewatchApi {
  api ??= window.tidewatch ? bridged(window.tidewatch) : webTransport();
  return api;
}

/**
 * An AbortSignal cannot cross Electron's contextBridge; a plain object of functions can (they
 * are proxied). The bridge's invoke gets that object and sends a cancel when it fires.
 */
function bridged(bridge: TidewatchApi): TidewatchApi {
  return {
    invoke: (method, args, options) => {
      const signal = options?.signal;
      if (!signal) return bridge.invoke(method, args);
      const plain: CancelSignal = {
        aborted: signal.aborted,
        addEventListener: (type, listener, o) => signal.addEventListener(type, listener, o),
        removeEventListener: (type, listener) => signal.removeEventListener(type, listener),
      };
      return bridge.invoke(method, args, { signal: plain });
    },
    subscribe: (topic, listener) => bridge.subscribe(topic, listener),
  };
}

/** For component tests. */
export function setApi(a: TidewatchApi): void {
  api = a;
}

export { ApiError } from './web-transport';

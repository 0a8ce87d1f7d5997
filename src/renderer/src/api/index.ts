import type { TidewatchApi } from '../../../shared/contract';
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
  api ??= window.tidewatch ?? webTransport();
  return api;
}

/** For component tests. */
export function setApi(a: TidewatchApi): void {
  api = a;
}

export { ApiError } from './web-transport';

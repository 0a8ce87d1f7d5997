import type { IncomingMessage, ServerResponse } from 'node:http';
import type { World } from '../chain/world';
import type { Query } from './query';

export interface RouteContext {
  world: World;
  query: Query;
  /** Decoded path parameters, by name. */
  params: Record<string, string>;
  req: IncomingMessage;
  res: ServerResponse;
  apiKey: string;
}

/** A handler returns the JSON body, or `undefined` when it answered itself (streams). */
export type Handler = (ctx: RouteContext) => unknown;

export interface Route {
  segments: string[];
  handler: Handler;
  /** A stream: it may take stream keys instead of api-keys. */
  stream?: boolean;
  /**
   * For a request that needs the whole history of a world still being built: true when what it
   * asks for exists already (it then answers at once instead of waiting).
   */
  answersEarly?: (ctx: Pick<RouteContext, 'world' | 'query' | 'params'>) => boolean;
}

export function route(path: string, handler: Handler, kind: 'rest' | 'stream' = 'rest'): Route {
  return { segments: path.split('/').filter(Boolean), handler, ...(kind === 'stream' ? { stream: true } : {}) };
}

export function matchRoute(
  routes: readonly Route[],
  segments: readonly string[],
): { route: Route; params: Record<string, string> } | null {
  for (const r of routes) {
    if (r.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < segments.length; i++) {
      const want = r.segments[i]!;
      const got = segments[i]!;
      if (want.startsWith(':')) params[want.slice(1)] = got;
      else if (want !== got) {
        ok = false;
        break;
      }
    }
    if (ok) return { route: r, params };
  }
  return null;
}

import type { ArgsOf, ContractMethod, ContractResults } from '../../../shared/contract';
import { alertCommands } from './alert-commands';
import type { ContractContext, Handler, Handlers } from './context';
import { serviceReads } from './service-reads';
import { settingsCommands } from './settings-commands';
import { watchCommands } from './watch-commands';
import { watchedReads } from './watched-reads';

/** The contract, one handler per method, each group given the services it uses, each call within one timeout. */
export function contractHandlers(c: ContractContext): Handlers {
  return withinOneTimeout(c, {
    ...serviceReads(c),
    ...watchedReads(c),
    ...settingsCommands(c),
    ...watchCommands(c),
    ...alertCommands(c),
  });
}

/**
 * Every call answers within the time one answer of the service may take (the client's
 * `timeoutMs`, 30 s), whatever it asks of the service: the signal a handler gets carries that
 * deadline, so the call's waits for a free request slot, its requests one after another and
 * their retries share it, and a service that trickles its answers costs the call one timeout,
 * not one per request. A read then answers what it kept, or a `timeout` error.
 */
function withinOneTimeout(c: Pick<ContractContext, 'client'>, handlers: Handlers): Handlers {
  const bounded: Partial<Record<ContractMethod, Handler<ContractMethod>>> = {};
  for (const [method, handler] of Object.entries(handlers) as Array<[ContractMethod, Handler<ContractMethod>]>) {
    bounded[method] = (args, signal) =>
      c.client.http.withinOneTimeout(signal, async (deadline) => handler(args, deadline));
  }
  return bounded as Handlers;
}

/** Run `method`'s handler on its parsed arguments. */
export function dispatch<M extends ContractMethod>(
  handlers: Handlers,
  method: M,
  args: ArgsOf<M>,
  signal?: AbortSignal,
): Promise<ContractResults[M]> | ContractResults[M] {
  return (handlers[method] as Handler<M>)(args, signal);
}

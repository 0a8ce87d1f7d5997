import type { ArgsOf, ContractMethod, ContractResults } from '../../../shared/contract';
import { alertCommands } from './alert-commands';
import type { ContractContext, Handler, Handlers } from './context';
import { serviceReads } from './service-reads';
import { settingsCommands } from './settings-commands';
import { watchCommands } from './watch-commands';
import { watchedReads } from './watched-reads';

/** The contract, one handler per method, each group given the services it uses. */
export function contractHandlers(c: ContractContext): Handlers {
  return {
    ...serviceReads(c),
    ...watchedReads(c),
    ...settingsCommands(c),
    ...watchCommands(c),
    ...alertCommands(c),
  };
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

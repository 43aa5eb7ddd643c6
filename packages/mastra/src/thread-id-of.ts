import type { RequestContext } from '@mastra/core/request-context';

/** The reserved key Mastra's server sets to the request's thread. */
const THREAD_ID_KEY = 'mastra__threadId';
/** The key under which an agent with memory puts `{ thread, resourceId }` once it has the thread. */
const MEMORY_KEY = 'MastraMemory';

/**
 * The request's thread, where Mastra keeps it: the server's `mastra__threadId`, else the thread
 * the agent's memory resolved. `undefined` when there is none; such a request shares no state.
 * @param requestContext - the request's context
 */
export function threadIdOf(requestContext: RequestContext | undefined): string | undefined {
  if (typeof requestContext?.get !== 'function') return undefined;
  const direct = requestContext.get(THREAD_ID_KEY);
  if (typeof direct === 'string' && direct !== '') return direct;
  const memory = requestContext.get(MEMORY_KEY) as { thread?: { id?: unknown } } | undefined;
  const fromMemory = memory?.thread?.id;
  return typeof fromMemory === 'string' && fromMemory !== '' ? fromMemory : undefined;
}

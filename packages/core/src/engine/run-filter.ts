import type { DenialReason, ToolFilter, ToolFilterArgs } from './types';

export type FilterVerdict =
  | { allowed: true }
  | { allowed: false; reason: DenialReason; error?: unknown };

/**
 * Asks a filter, treating `false`, anything but `true`, a throw, a rejection, or no answer within
 * `timeout` ms as "not allowed".
 */
export async function runFilter<TTool, TContext>(
  filter: ToolFilter<TTool, TContext>,
  args: ToolFilterArgs<TTool, TContext>,
  timeout: number,
): Promise<FilterVerdict> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const answer = filter(args);
    if (typeof answer === 'boolean')
      return answer ? { allowed: true } : { allowed: false, reason: 'filter' };
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeout);
      timer.unref?.();
    });
    const result = await Promise.race([Promise.resolve(answer), timedOut]);
    if (result === 'timeout') return { allowed: false, reason: 'filter-timeout' };
    return result === true ? { allowed: true } : { allowed: false, reason: 'filter' };
  } catch (error) {
    return { allowed: false, reason: 'filter-error', error };
  } finally {
    if (timer) clearTimeout(timer);
  }
}

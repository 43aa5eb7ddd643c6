import type { RequestContext } from '@mastra/core/request-context';
import type { ActiveTool, ToolSearchSession } from 'tool-search-core';
import { isSameRequest, requestIdentityOf } from './request-identity';
import type { AnyMastraTool } from './tool-search-processor-options';

/**
 * What can make a run's answer differ from the step's, so that a run asks the session again
 * whether the tool is active: a filter may change its mind by the time an approval runs the tool,
 * and with `maxLoadedTools` a run counts as a use for the eviction order.
 */
export interface RunChecks {
  /** A `filter` is set (it cannot say whether it checks the `active` phase, so any counts). */
  filter: boolean;
  /** A `deferredFilter` is set: it is asked about deferred tools only. */
  deferredFilter: boolean;
  /** `maxLoadedTools` is set. */
  budget: boolean;
}

/**
 * The tool to offer for a pinned or loaded tool: the registered object itself when nothing must be
 * enforced when it runs, else a copy whose `execute` first refuses a run under another request
 * (a deferred tool, which may act with its caller's credentials) and, with `recheck`, a tool that
 * is no longer active.
 * @param active - the session's active tool
 * @param session - the request's session
 * @param checks - what makes a run ask the session again
 */
export function toStepTool(
  active: ActiveTool<AnyMastraTool>,
  session: ToolSearchSession<AnyMastraTool, RequestContext>,
  checks: RunChecks,
): AnyMastraTool {
  const { id, tool } = active;
  const execute = (tool as { execute?: unknown }).execute;
  const identity = active.deferred ? requestIdentityOf(session.requestContext) : undefined;
  const recheck =
    checks.filter || checks.budget || (active.deferred === true && checks.deferredFilter);
  if (typeof execute !== 'function' || (!identity && !recheck)) return tool;
  // Keep the prototype: Mastra recognises its tools by class or by a marker it may inherit.
  const guarded = Object.assign(Object.create(Object.getPrototypeOf(tool)), tool) as {
    execute: (...args: unknown[]) => Promise<unknown>;
  };
  guarded.execute = async (...args: unknown[]) => {
    const runContext = (args[1] as { requestContext?: unknown } | undefined)?.requestContext;
    if (identity && !isSameRequest(identity, runContext)) {
      throw new Error(
        `Tool "${id}" was loaded for another request: request identity changed. Load it again in this request.`,
      );
    }
    if (recheck && !(await session.isActive(id))) {
      // Worded like an unknown tool: a refusal must not reveal tools the caller may not use.
      throw new Error(`Tool "${id}" is not loaded. Use search_tools to find tools, then load one.`);
    }
    return execute.apply(tool, args);
  };
  return guarded as unknown as AnyMastraTool;
}

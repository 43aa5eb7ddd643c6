import type { RequestContext } from '@mastra/core/request-context';
import type { ActiveTool, ToolSearchSession } from 'tool-search-core';
import { isSameRequest, requestIdentityOf } from './request-identity';
import type { AnyMastraTool } from './tool-search-processor-options';

/** What has to be checked when a loaded tool runs, beyond what the step already checked. */
export interface RunChecks {
  /**
   * Ask the session again whether the tool is active: the filter may answer differently by the
   * time an approval runs the tool, and with `maxLoadedTools` a run counts as a use.
   */
  recheck: boolean;
}

/**
 * The tool to offer for a pinned or loaded tool: the registered object itself when nothing must be
 * enforced when it runs, else a copy whose `execute` first refuses a run under another request
 * (a deferred tool, which may act with its caller's credentials) and, with `recheck`, a tool that
 * is no longer active.
 * @param active - the session's active tool
 * @param session - the request's session
 * @param checks - whether the run re-asks the session
 */
export function toStepTool(
  active: ActiveTool<AnyMastraTool>,
  session: ToolSearchSession<AnyMastraTool, RequestContext>,
  checks: RunChecks,
): AnyMastraTool {
  const { id, tool } = active;
  const execute = (tool as { execute?: unknown }).execute;
  const identity = active.deferred ? requestIdentityOf(session.requestContext) : undefined;
  if (typeof execute !== 'function' || (!identity && !checks.recheck)) return tool;
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
    if (checks.recheck && !(await session.isActive(id))) {
      // Worded like an unknown tool: a refusal must not reveal tools the caller may not use.
      throw new Error(`Tool "${id}" is not loaded. Use search_tools to find tools, then load one.`);
    }
    return execute.apply(tool, args);
  };
  return guarded as unknown as AnyMastraTool;
}

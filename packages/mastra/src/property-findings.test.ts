/**
 * Regression tests for the bugs the model-based property tests found through this adapter, as
 * small fixed examples that fail without the fix.
 */
import type { ProcessInputStepArgs } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { describe, expect, it } from 'vitest';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { ToolSearchProcessor } from './tool-search-processor';

type StepTools = Record<
  string,
  { execute: (input: unknown, context: unknown) => Promise<unknown> }
>;

describe('a loaded tool kept from an earlier step', () => {
  it('does not run once the filter denies it, even though its step allowed it', async () => {
    const log: ExecutionLog = { runs: [] };
    let denied = false;
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      filter: ({ phase, toolName }) =>
        !(denied && phase === 'active' && toolName === 'get_weather'),
    });
    const step = async () => {
      const requestContext = new RequestContext();
      requestContext.set('mastra__threadId', 'thread-1');
      const result = await processor.processInputStep({
        tools: {},
        messages: [],
        requestContext,
        state: {},
        stepNumber: 0,
        steps: [],
        messageList: { addSystem: () => {} },
      } as unknown as ProcessInputStepArgs);
      return result.tools as StepTools;
    };
    await (await step()).load_tool!.execute({ toolName: 'get_weather' }, {});
    const kept = (await step()).get_weather!;
    denied = true;
    expect(Object.keys(await step())).not.toContain('get_weather');
    await expect(kept.execute({ city: 'Paris' }, {})).rejects.toThrow(/not loaded/);
    expect(log.runs).toEqual([]);
  });
});

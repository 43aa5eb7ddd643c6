import { tool } from '@langchain/core/tools';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { toolSearchMiddleware } from './tool-search-middleware';
import type { ToolSearchRuntime } from './tool-search-options';
import { createToolSearchSelector } from './tool-search-selector';

type AppContext = { plan: 'free' | 'pro' };

const catalog = [
  tool(async ({ city }) => `sunny in ${city}`, {
    name: 'get_weather',
    description: 'Get the weather',
    schema: z.object({ city: z.string() }),
  }),
];

describe('context typing', () => {
  it("types the filter's requestContext.context from the type argument", () => {
    toolSearchMiddleware<AppContext>({
      toolSearch: true,
      tools: catalog,
      filter: ({ requestContext }) => {
        expectTypeOf(requestContext?.context).toEqualTypeOf<AppContext | undefined>();
        return requestContext?.context?.plan === 'pro';
      },
    });
  });

  it('infers the context type from an annotated filter', () => {
    const selector = createToolSearchSelector({
      toolSearch: true,
      expose: 'tools',
      tools: catalog,
      filter: ({ requestContext }: { requestContext: ToolSearchRuntime<AppContext> | undefined }) =>
        requestContext?.context?.plan === 'pro',
    });
    expectTypeOf(selector.engine.createSession)
      .parameter(0)
      .exclude<undefined>()
      .toHaveProperty('requestContext')
      .toEqualTypeOf<ToolSearchRuntime<AppContext> | undefined>();
  });

  it('keeps the context unknown when nothing names it', () => {
    toolSearchMiddleware({
      toolSearch: true,
      expose: 'tools',
      tools: catalog,
      filter: ({ requestContext }) => {
        expectTypeOf(requestContext?.context).toEqualTypeOf<unknown>();
        return true;
      },
    });
  });

  it('accepts any LangGraph runtime in selectTools, whatever the context type', () => {
    const selector = createToolSearchSelector<AppContext>({ toolSearch: true, tools: catalog });
    expectTypeOf(selector.selectTools).toBeCallableWith([], {
      configurable: { thread_id: 't1' },
      context: { anything: true },
    });
  });
});

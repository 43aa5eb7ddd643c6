import {
  generateText,
  stepCountIs,
  streamText,
  type Tool,
  ToolLoopAgent,
  type ToolSet,
  tool,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Experimental_Agent as AgentV5, type generateText as generateTextV5 } from 'ai-v5';
import type { generateText as generateTextV6, ToolLoopAgent as ToolLoopAgentV6 } from 'ai-v6';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createToolSearch } from './index';

const catalog = {
  get_weather: tool({
    description: 'Get the weather',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, sunny: true }),
  }),
};

describe('createToolSearch types', () => {
  it("types expose: 'proxy' tools as the meta-tools plus, at most, the catalog's pinned tools", () => {
    const toolSearch = createToolSearch({ toolSearch: true, tools: catalog, expose: 'proxy' });
    expectTypeOf(toolSearch.tools.call_tool).toEqualTypeOf<Tool>();
    expectTypeOf(toolSearch.tools).toExtend<ToolSet>();
    const model = new MockLanguageModelV4();
    const run = () =>
      void generateText({
        model,
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        prompt: 'hi',
      });
    expectTypeOf(run).toBeFunction();
    const plain = createToolSearch({ toolSearch: true, tools: catalog, expose: 'tools' });
    expectTypeOf(plain.tools.get_weather).toEqualTypeOf<(typeof catalog)['get_weather']>();
    // The default is the proxy, whose tools fit any tool set, a `ToolSet`-typed catalog's too.
    const byDefault = createToolSearch({ toolSearch: true, tools: catalog as ToolSet });
    expectTypeOf(byDefault.tools).toExtend<ToolSet>();
  });

  it('fits generateText, streamText and ToolLoopAgent of ai 7 without casts', () => {
    const toolSearch = createToolSearch({
      toolSearch: true,
      tools: catalog,
      alwaysLoaded: ['get_weather'],
    });
    const model = new MockLanguageModelV4();
    const run = () => {
      void generateText({
        model,
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        stopWhen: stepCountIs(10),
        prompt: 'hi',
      });
      void streamText({
        model,
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        prompt: 'hi',
      });
      void new ToolLoopAgent({
        model,
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
      });
    };
    expectTypeOf(run).toBeFunction();
    expectTypeOf(toolSearch.tools).toHaveProperty('get_weather');
    expectTypeOf(toolSearch.tools).toHaveProperty('search_tools');
  });

  it('keeps its prepareStep assignable to ai 5 and 6', () => {
    const toolSearch = createToolSearch({ toolSearch: true, tools: {} });
    type V5PrepareStep = NonNullable<Parameters<typeof generateTextV5>[0]['prepareStep']>;
    type V6PrepareStep = NonNullable<Parameters<typeof generateTextV6>[0]['prepareStep']>;
    expectTypeOf(toolSearch.prepareStep).toExtend<V5PrepareStep>();
    expectTypeOf(toolSearch.prepareStep).toExtend<V6PrepareStep>();
    expectTypeOf(AgentV5).toBeConstructibleWith({
      model: 'm',
      prepareStep: toolSearch.prepareStep,
    });
    type V6AgentPrepareStep = NonNullable<
      ConstructorParameters<typeof ToolLoopAgentV6>[0]['prepareStep']
    >;
    expectTypeOf(toolSearch.prepareStep).toExtend<V6AgentPrepareStep>();
  });

  it("infers the call's context type from the threadId function's parameter", () => {
    type AppContext = { userId: string; threadId: string; plan: 'free' | 'pro' };
    const toolSearch = createToolSearch({
      toolSearch: true,
      tools: catalog,
      storage: 'in-memory',
      threadId: (context: AppContext | undefined) => context?.threadId,
      filter: ({ requestContext }) => {
        expectTypeOf(requestContext).toEqualTypeOf<AppContext | undefined>();
        return requestContext?.plan === 'pro';
      },
    });
    expectTypeOf(toolSearch.createPrepareStep).toBeCallableWith({
      context: { userId: 'u', threadId: 't', plan: 'pro' },
    });
    // @ts-expect-error: not a plan of AppContext
    toolSearch.createPrepareStep({ context: { userId: 'u', threadId: 't', plan: 'gold' } });
    const model = new MockLanguageModelV4();
    const context: AppContext = { userId: 'u', threadId: 't', plan: 'free' };
    const run = () =>
      generateText({
        model,
        tools: toolSearch.tools,
        prepareStep: toolSearch.prepareStep,
        runtimeContext: context,
        prompt: 'hi',
      });
    expectTypeOf(run).toBeFunction();
  });

  it("infers the call's context type from an annotated filter", () => {
    type AppContext = { plan: 'free' | 'pro' };
    const toolSearch = createToolSearch({
      toolSearch: true,
      tools: catalog,
      filter: ({ requestContext }: { requestContext: AppContext | undefined }) =>
        requestContext?.plan === 'pro',
    });
    expectTypeOf(toolSearch.engine.createSession({}).requestContext).toEqualTypeOf<
      AppContext | undefined
    >();
  });

  it('leaves the context unknown when nothing names it', () => {
    createToolSearch({
      toolSearch: true,
      tools: catalog,
      filter: ({ requestContext }) => {
        expectTypeOf(requestContext).toEqualTypeOf<unknown>();
        return true;
      },
    });
  });

  it('composes a prepareStep of yours written inline in the call', () => {
    const toolSearch = createToolSearch({ toolSearch: true, tools: catalog });
    const run = () =>
      generateText({
        model: new MockLanguageModelV4(),
        tools: toolSearch.tools,
        prepareStep: toolSearch.createPrepareStep({
          prepareStep: ({ stepNumber }) =>
            stepNumber === 0 ? { toolChoice: 'required' } : undefined,
        }),
        prompt: 'hi',
      });
    expectTypeOf(run).toBeFunction();
  });
});

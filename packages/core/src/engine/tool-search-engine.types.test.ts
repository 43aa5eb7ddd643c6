import { describe, expectTypeOf, it } from 'vitest';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolFilterArgs } from './types';

interface MyTool {
  description: string;
}
interface AppContext {
  plan: 'free' | 'pro';
}
const tools: Record<string, MyTool> = { get_weather: { description: 'Current weather' } };
const describeTool = (tool: MyTool, key: string) => ({ id: key, description: tool.description });

describe('createToolSearchEngine context typing', () => {
  it('types the filter and createSession from the type arguments', () => {
    const engine = createToolSearchEngine<MyTool, AppContext>({
      tools,
      describe: describeTool,
      filter: ({ requestContext, tool }) => {
        expectTypeOf(requestContext).toEqualTypeOf<AppContext | undefined>();
        expectTypeOf(tool).toEqualTypeOf<MyTool>();
        return requestContext?.plan === 'pro';
      },
    });
    expectTypeOf(engine.createSession).toBeCallableWith({ requestContext: { plan: 'pro' } });
    // @ts-expect-error: not a plan of AppContext
    engine.createSession({ requestContext: { plan: 'gold' } });
  });

  it('infers the context type from an annotated filter', () => {
    const engine = createToolSearchEngine({
      tools,
      describe: describeTool,
      filter: ({ requestContext }: ToolFilterArgs<MyTool, AppContext>) =>
        requestContext?.plan === 'pro',
    });
    expectTypeOf(engine.createSession({}).requestContext).toEqualTypeOf<AppContext | undefined>();
  });

  it('infers the tool type from `tools` and leaves the context unknown without a hint', () => {
    const engine = createToolSearchEngine({ tools, describe: describeTool });
    expectTypeOf(engine.catalog.get('get_weather')?.tool).toEqualTypeOf<MyTool | undefined>();
    expectTypeOf(engine.createSession({}).requestContext).toEqualTypeOf<unknown>();
  });
});

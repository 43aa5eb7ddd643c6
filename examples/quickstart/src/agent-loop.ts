import { createToolSearchEngine, type ToolSearchEngine } from 'tool-search-core';
import { z } from 'zod';
import type { ExampleTool } from './catalog';
import type { ModelAction, ModelInput } from './scripted-model';
import { countToolTokens, type ToolDefinition } from './tool-tokens';

/** One step of the loop, as the demo prints it. */
export interface StepRecord {
  step: number;
  action: string;
  result: string;
  toolsSent: number;
  tokensSent: number;
}

export interface AgentRun {
  steps: StepRecord[];
  answer: string;
  catalogTools: number;
  catalogTokens: number;
}

const MAX_STEPS = 12;

/** The tool-search engine over the example catalog: the only wiring a core-only app needs. */
export function createEngine(catalog: readonly ExampleTool[]): ToolSearchEngine<ExampleTool> {
  const tools: Record<string, ExampleTool> = {};
  for (const tool of catalog)
    Object.defineProperty(tools, tool.id, { value: tool, enumerable: true });
  return createToolSearchEngine<ExampleTool>({
    tools,
    describe: (tool) => ({
      id: tool.id,
      description: tool.description,
      inputSchema: tool.inputSchema,
    }),
    search: { topK: 3 },
    // The model's tools never change (the meta-tools, call_tool among them): a load does not
    // break the provider's prompt cache. call_tool runs a loaded tool through runTool, once it has
    // checked that the tool is loaded and the arguments match its input schema.
    expose: 'proxy',
    runTool: ({ tool, arguments: input }) => tool.run(input),
  });
}

/**
 * A minimal agent loop on the core alone: each step sends the model the meta-tools (and pinned
 * tools, none here), the same every step, runs the meta-tool it calls (a loaded tool through
 * `call_tool`), and stops at the answer.
 */
export async function runAgent(options: {
  catalog: readonly ExampleTool[];
  model: (input: ModelInput) => ModelAction;
  onStep?: (step: StepRecord) => void;
}): Promise<AgentRun> {
  const engine = createEngine(options.catalog);
  const session = engine.createSession({ threadId: 'demo-thread' });
  const catalogDefinitions = options.catalog.map(toDefinition);
  const steps: StepRecord[] = [];
  let lastResult: ModelInput['lastResult'];
  for (let step = 1; step <= MAX_STEPS; step++) {
    const offered = await session.offeredTools();
    const sent: ToolDefinition[] = [
      ...session.metaTools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: z.toJSONSchema(tool.inputSchema) as ToolDefinition['parameters'],
      })),
      ...offered.map(({ tool }) => toDefinition(tool)),
    ];
    const action = options.model({
      toolNames: sent.map((definition) => definition.name),
      lastResult,
    });
    const record: StepRecord = {
      step,
      action: '',
      result: '',
      toolsSent: sent.length,
      tokensSent: countToolTokens(sent),
    };
    steps.push(record);
    if (action.type === 'answer') {
      record.action = 'answer';
      record.result = action.text;
      options.onStep?.(record);
      engine.dispose();
      return {
        steps,
        answer: action.text,
        catalogTools: catalogDefinitions.length,
        catalogTokens: countToolTokens(catalogDefinitions),
      };
    }
    const output = await callTool(session, action.toolName, action.input);
    record.action = `${action.toolName}(${JSON.stringify(action.input)})`;
    record.result = JSON.stringify(output);
    lastResult = { toolName: action.toolName, output };
    options.onStep?.(record);
  }
  engine.dispose();
  throw new Error(`The model gave no answer within ${MAX_STEPS} steps`);
}

async function callTool(
  session: ReturnType<ToolSearchEngine<ExampleTool>['createSession']>,
  toolName: string,
  input: Record<string, unknown>,
): Promise<unknown> {
  const metaTool = session.metaTools.find((tool) => tool.name === toolName);
  if (metaTool) return metaTool.execute(input);
  // A model can name a tool it was never given; only the meta-tools are tools here.
  return { error: `There is no tool "${toolName}". Run a loaded tool with call_tool.` };
}

function toDefinition(tool: ExampleTool): ToolDefinition {
  return { name: tool.id, description: tool.description, parameters: tool.inputSchema };
}

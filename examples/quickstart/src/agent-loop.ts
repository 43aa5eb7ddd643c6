import { createToolSearchEngine, type ToolSearchEngine } from 'tool-search-core';
import { z } from 'zod';
import type { ExampleTool } from './catalog';
import { type ConversationCost, type PricedRequest, priceConversation } from './conversation-cost';
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
  /** What the conversation cost with tool search, and what the same work costs sending every tool. */
  cost: { toolSearch: ConversationCost; everyTool: ConversationCost };
}

/** The application's own system prompt. */
const SYSTEM_PROMPT = 'You are a helpful assistant. Use the tools you are given to do the task.';

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
    // A catalog this large is searched; one under the threshold would be given whole.
    toolSearch: 'auto',
    // The model's tools never change (the meta-tools, call_tool among them): a load does not
    // break the provider's prompt cache. call_tool runs a loaded tool through runTool, once it has
    // checked that the tool is loaded and the arguments match its input schema.
    expose: 'proxy',
    runTool: ({ tool, arguments: input }) => tool.run(input),
  });
}

/**
 * A minimal agent loop on the core alone: each step sends the model what `session.offer()` says
 * (here the meta-tools, the same every step), runs the meta-tool it calls (a catalog tool through
 * `call_tool`), and stops at the answer.
 */
export async function runAgent(options: {
  catalog: readonly ExampleTool[];
  /** The user's message. */
  task: string;
  model: (input: ModelInput) => ModelAction;
  onStep?: (step: StepRecord) => void;
}): Promise<AgentRun> {
  const engine = createEngine(options.catalog);
  const session = engine.createSession({ threadId: 'demo-thread' });
  const catalogDefinitions = options.catalog.map(toDefinition);
  const steps: StepRecord[] = [];
  // The conversation as the provider receives it, for pricing: its messages so far, each request.
  const messages: string[] = [JSON.stringify({ role: 'user', content: options.task })];
  const requests: PricedRequest[] = [];
  const ran: { name: string; input: unknown; output: unknown }[] = [];
  let lastResult: ModelInput['lastResult'];
  for (let step = 1; step <= MAX_STEPS; step++) {
    // The meta-tools (the same every step) and pinned tools; a small catalog would be all here.
    const offer = await session.offer();
    const sent: ToolDefinition[] = [
      ...offer.metaTools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: z.toJSONSchema(tool.inputSchema) as ToolDefinition['parameters'],
      })),
      ...offer.tools.map(({ tool }) => toDefinition(tool)),
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
    const prompt = [
      ...sent.map((definition) => JSON.stringify(definition)),
      `${SYSTEM_PROMPT}\n\n${offer.instructions}`,
      ...messages,
    ];
    const said =
      action.type === 'answer'
        ? JSON.stringify({ role: 'assistant', content: action.text })
        : JSON.stringify({ role: 'assistant', call: action.toolName, input: action.input });
    requests.push({ blocks: prompt, output: said });
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
        cost: {
          toolSearch: priceConversation(requests),
          everyTool: priceConversation(
            everyToolRequests(catalogDefinitions, options.task, ran, action.text),
          ),
        },
      };
    }
    const output = await callTool(session, action.toolName, action.input);
    record.action = `${action.toolName}(${JSON.stringify(action.input)})`;
    record.result = JSON.stringify(output);
    messages.push(said, JSON.stringify({ role: 'tool', content: output }));
    if (action.toolName === 'call_tool') {
      const { name, arguments: input } = action.input as { name: string; arguments: unknown };
      ran.push({ name, input, output });
    }
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

/**
 * The same work with every catalog tool sent on every request: the model calls each tool it
 * needs directly (no search), with the same results, then answers.
 */
function everyToolRequests(
  catalog: readonly ToolDefinition[],
  task: string,
  ran: readonly { name: string; input: unknown; output: unknown }[],
  answer: string,
): PricedRequest[] {
  const tools = catalog.map((definition) => JSON.stringify(definition));
  const messages = [JSON.stringify({ role: 'user', content: task })];
  const requests: PricedRequest[] = [];
  for (const call of ran) {
    const said = JSON.stringify({ role: 'assistant', call: call.name, input: call.input });
    requests.push({ blocks: [...tools, SYSTEM_PROMPT, ...messages], output: said });
    messages.push(said, JSON.stringify({ role: 'tool', content: call.output }));
  }
  const final = JSON.stringify({ role: 'assistant', content: answer });
  requests.push({ blocks: [...tools, SYSTEM_PROMPT, ...messages], output: final });
  return requests;
}

function toDefinition(tool: ExampleTool): ToolDefinition {
  return { name: tool.id, description: tool.description, parameters: tool.inputSchema };
}

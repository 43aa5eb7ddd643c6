import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import type { MastraMemory } from '@mastra/core/memory';
import type { Processor } from '@mastra/core/processors';
import { RequestContext } from '@mastra/core/request-context';
import { createCapturedLogger, type LoggedLine } from './captured-logger';
import { createScriptedModel, type ModelAction, type ModelTurn } from './scripted-model';

/** One `generate` call of a real Mastra agent driven by a scripted model. */
export interface AgentRun {
  turns: ModelTurn[];
  /** Each model call's tool definitions and prompt, as the model received them. */
  requests: { tools: unknown; messages: readonly unknown[] }[];
  text: string;
  /** The conversation after the call, to send back in the next call (memory-less). */
  messages: unknown[];
  /** What Mastra logged during the call (errors of steps that failed on purpose, warnings). */
  logs: LoggedLine[];
}

type AgentConfig = ConstructorParameters<typeof Agent>[0];

const AGENT_ID = 'test-agent';

export interface RunAgentOptions {
  processor: Processor;
  script: (turn: ModelTurn) => ModelAction | Promise<ModelAction>;
  /** Input processors that run before the tool search processor. */
  before?: Processor[];
  /** A prompt, or a whole conversation to resend. */
  input: string | unknown[];
  /** Values to put in the request context (`mastra__threadId`, a user...). */
  context?: Record<string, unknown>;
  /** The agent's own tools, or a function resolving them per request. */
  tools?: AgentConfig['tools'];
  memory?: MastraMemory;
  memoryOptions?: { thread: string; resource: string };
  /** @default 10 */
  maxSteps?: number;
  /** More of the Mastra instance the agent is registered with (its classifiers...). */
  mastra?: Omit<NonNullable<ConstructorParameters<typeof Mastra>[0]>, 'agents' | 'logger'>;
}

/** Runs a real Mastra `Agent` with the processor as its only input processor. */
export async function runAgent(options: RunAgentOptions): Promise<AgentRun> {
  const model = createScriptedModel(options.script);
  const agent = new Agent({
    id: AGENT_ID,
    name: AGENT_ID,
    instructions: 'You help with tasks by finding the right tools.',
    // Mastra types a V4 model's doGenerate as streaming; the mock is a real LanguageModelV4.
    model: model as unknown as AgentConfig['model'],
    inputProcessors: [...(options.before ?? []), options.processor] as NonNullable<
      AgentConfig['inputProcessors']
    >,
    ...(options.tools && { tools: options.tools }),
    ...(options.memory && { memory: options.memory }),
  });
  // Registered with a Mastra whose logger keeps its lines: every part of the run (processor
  // workflows, the model loop) logs there instead of printing failures meant to happen.
  const captured = createCapturedLogger();
  new Mastra({ ...options.mastra, agents: { [AGENT_ID]: agent }, logger: captured.logger });
  const requestContext = new RequestContext();
  for (const [key, value] of Object.entries(options.context ?? {})) requestContext.set(key, value);
  let result: Awaited<ReturnType<typeof agent.generate>>;
  try {
    result = await agent.generate(options.input as string, {
      maxSteps: options.maxSteps ?? 10,
      requestContext,
      ...(options.memoryOptions && { memory: options.memoryOptions }),
    });
  } catch (error) {
    // What Mastra logged on the way goes with the error, for a test that looks into it.
    if (error instanceof Error) Object.assign(error, { mastraLogs: captured.lines });
    throw error;
  }
  const input =
    typeof options.input === 'string' ? [{ role: 'user', content: options.input }] : options.input;
  return {
    turns: model.turns,
    requests: [...model.doGenerateCalls, ...model.doStreamCalls].map((call) => ({
      tools: call.tools ?? [],
      messages: call.prompt,
    })),
    text: result.text,
    messages: [...input, ...(result.response?.messages ?? [])],
    logs: captured.lines,
  };
}

/** The last tool result the model saw, if any. */
export function lastResult(turn: ModelTurn): { toolName: string; output: unknown } | undefined {
  return turn.toolResults.at(-1);
}

/**
 * The usual loop: search for `query`, load the best result (unless autoLoad loaded it), call it
 * with `input`, then answer with what it returned.
 */
export function searchLoadCall(query: string, input: Record<string, unknown>) {
  let chosen: string | undefined;
  return (turn: ModelTurn): ModelAction => {
    const last = lastResult(turn);
    if (!last || (chosen === undefined && last.toolName !== 'search_tools'))
      return { toolName: 'search_tools', input: { query } };
    if (last.toolName === 'search_tools') {
      chosen = (last.output as { results: { name: string }[] }).results[0]?.name;
      if (!chosen) return { text: 'nothing found' };
      return turn.toolNames.includes('load_tool')
        ? { toolName: 'load_tool', input: { toolName: chosen } }
        : { toolName: chosen, input };
    }
    if (last.toolName === 'load_tool' && chosen) return { toolName: chosen, input };
    return { text: `done: ${JSON.stringify(last.output)}` };
  };
}

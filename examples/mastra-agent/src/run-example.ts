import { Agent } from '@mastra/core/agent';
import { ToolSearchProcessor } from 'tool-search-mastra';
import { createCatalog } from './catalog';
import { createScriptedModel, type Intent } from './scripted-model';

type AgentModel = ConstructorParameters<typeof Agent>[0]['model'];

export const TASK = 'What is the weather in Lisbon? Post it to the #travel Slack channel.';

const INTENTS: Intent[] = [
  { query: 'get weather forecast', input: { target: 'Lisbon' } },
  { query: 'send slack message', input: { target: '#travel', details: 'Sunny' } },
];

/** One step of the run: the tool the model called (or its answer) and how many tools it was sent. */
export interface ExampleStep {
  action: string;
  toolsSent: number;
}

/**
 * Runs the example: a Mastra agent whose 300-tool catalog sits behind `ToolSearchProcessor`. Uses
 * OpenAI when `OPENAI_API_KEY` is set, else a scripted model, so it runs offline.
 */
export async function runExample(): Promise<{
  catalogSize: number;
  steps: ExampleStep[];
  answer: string;
}> {
  const tools = createCatalog();
  const agent = new Agent({
    id: 'integrations-assistant',
    name: 'Integrations assistant',
    instructions: 'You act across the user’s SaaS tools. Find the tools you need, then use them.',
    model: process.env.OPENAI_API_KEY
      ? 'openai/gpt-4o-mini'
      : // Mastra 1.71 types a V4 model's doGenerate as streaming; the mock is a real LanguageModelV4.
        (createScriptedModel(INTENTS) as unknown as AgentModel),
    inputProcessors: [new ToolSearchProcessor({ tools, search: { topK: 5 } })],
  });
  const toolsSent: number[] = [];
  const result = await agent.generate(TASK, {
    maxSteps: 12,
    prepareStep: ({ tools: stepTools }) => {
      toolsSent.push(Object.keys(stepTools ?? {}).length);
      return undefined;
    },
  });
  const steps: ExampleStep[] = result.steps.map((step, position) => ({
    action:
      step.toolCalls
        .map((call) => `${call.payload.toolName}(${JSON.stringify(call.payload.args)})`)
        .join(', ') || 'answer',
    toolsSent: toolsSent[position] ?? 0,
  }));
  return { catalogSize: Object.keys(tools).length, steps, answer: result.text };
}

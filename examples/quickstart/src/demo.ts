import { type AgentRun, runAgent } from './agent-loop';
import { catalog } from './catalog';
import { createScriptedModel, type Intent } from './scripted-model';

export const TASK =
  'What will the weather be in Lisbon over the next 3 days? Post the forecast to #travel on Slack and open a GitHub issue in acme/trips to pack umbrellas if it rains.';

/** What the scripted model does for TASK: three capabilities it has to find in the catalog. */
export const INTENTS: Intent[] = [
  {
    query: 'weather forecast for the next days',
    input: { city: 'Lisbon', days: 3 },
    summarize: (output) => `Forecast: ${JSON.stringify(output)}.`,
  },
  {
    query: 'post a message to a slack channel',
    input: { channel: '#travel', text: 'Lisbon, next 3 days: see the forecast thread.' },
    summarize: () => 'Posted the forecast to #travel.',
  },
  {
    query: 'create github issue',
    input: { repo: 'acme/trips', title: 'Pack umbrellas for Lisbon', labels: ['travel'] },
    summarize: (output) => `Opened ${JSON.stringify(output)}.`,
  },
];

/** Runs the demo task with the scripted model. */
export function runDemo(onStep?: Parameters<typeof runAgent>[0]['onStep']): Promise<AgentRun> {
  return runAgent({
    catalog,
    task: TASK,
    model: createScriptedModel(INTENTS),
    ...(onStep && { onStep }),
  });
}

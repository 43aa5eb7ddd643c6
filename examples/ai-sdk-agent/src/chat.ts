import { gateway, generateText, type LanguageModel, type ModelMessage, stepCountIs } from 'ai';
import { createToolSearch } from 'tool-search-ai-sdk';
import { createCatalog } from './catalog';
import { createScriptedModel, type Intent } from './scripted-model';

/** The user's turns, and what the offline model does for each. */
export const TURNS: [message: string, intent: Intent][] = [
  [
    'Open a GitHub issue in acme/web: the login button does nothing on Safari.',
    {
      query: 'github create issue',
      input: { repository: 'acme/web', title: 'Login button does nothing on Safari' },
    },
  ],
  [
    'Tell the #web channel on Slack that the bug is filed.',
    {
      query: 'slack create message',
      input: { channel: '#web', title: 'Login bug filed on GitHub' },
    },
  ],
  [
    'Also open an issue for the broken signup page.',
    {
      query: 'github create issue',
      input: { repository: 'acme/web', title: 'Signup page is broken' },
    },
  ],
];

/** One model step: what the model was offered, and what it did. */
export interface StepReport {
  toolsSent: number;
  action: string;
}

/**
 * A chat of three turns over a 300-tool catalog. State is `'context'`: like a chat app, each turn
 * sends the whole conversation back, and the tools loaded earlier come back with it.
 * @param options - `log` receives each line; `model` replaces the offline model
 */
export async function runChat(
  options: { log?: (line: string) => void; model?: LanguageModel } = {},
) {
  const log = options.log ?? (() => {});
  const catalog = createCatalog();
  const toolSearch = createToolSearch({ tools: catalog, search: { topK: 5 } });
  const model = options.model ?? createScriptedModel(Object.fromEntries(TURNS));
  const messages: ModelMessage[] = [];
  const turns: { steps: StepReport[]; answer: string }[] = [];
  log(
    `Catalog: ${Object.keys(catalog).length} tools. The model is sent the same three meta-tools at every step.\n`,
  );

  for (const [text] of TURNS) {
    messages.push({ role: 'user', content: text });
    log(`user: ${text}`);
    const steps: StepReport[] = [];
    const result = await generateText({
      model,
      instructions: toolSearch.instructions,
      messages,
      tools: toolSearch.tools,
      prepareStep: toolSearch.prepareStep,
      stopWhen: stepCountIs(8),
      onStepStart: ({ activeTools }) => {
        steps.push({ toolsSent: activeTools?.length ?? 0, action: 'answer' });
      },
      onStepEnd: ({ toolCalls: [call] }) => {
        if (call) steps.at(-1)!.action = `${call.toolName}(${JSON.stringify(call.input)})`;
      },
    });
    // ai 7: `responseMessages` is the whole exchange (`response.messages` holds the last step only).
    messages.push(...result.responseMessages);
    turns.push({ steps, answer: result.text });
    for (const step of steps) log(`  [${step.toolsSent} tools] ${step.action}`);
    log(`assistant: ${result.text}\n`);
  }
  return { catalogSize: Object.keys(catalog).length, turns };
}

/** The AI Gateway model when `AI_GATEWAY_API_KEY` is set (`AI_MODEL`, default openai/gpt-5-mini). */
export function gatewayModel(): LanguageModel | undefined {
  return process.env.AI_GATEWAY_API_KEY
    ? gateway(process.env.AI_MODEL ?? 'openai/gpt-5-mini')
    : undefined;
}

import Anthropic from '@anthropic-ai/sdk';
import { runAgent } from './agent-loop';
import { createCatalog } from './catalog';
import { recordedFetch } from './recorded';

// Online when ANTHROPIC_API_KEY is set (the SDK also reads ANTHROPIC_BASE_URL); recorded otherwise.
const online = Boolean(process.env.ANTHROPIC_API_KEY);
const client = online
  ? new Anthropic()
  : new Anthropic({ apiKey: 'offline', fetch: recordedFetch() });
const catalog = createCatalog();
const run = await runAgent({
  client,
  model: process.env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5',
  catalog,
  prompt: 'Open a GitHub issue: the login page is blank on Safari.',
});
const deferred = run.tools.filter((tool) => 'defer_loading' in tool && tool.defer_loading).length;
console.log(
  `${online ? 'Messages API' : 'Recorded responses'}: ${run.tools.length} tools sent every step, ${deferred} deferred.`,
);
for (const step of run.steps) {
  console.log(`- ${step.action}${step.referenced ? ` -> ${step.referenced.join(', ')}` : ''}`);
}
console.log(run.answer);

import OpenAI from 'openai';
import { runAgent } from './agent-loop';
import { createCatalog } from './catalog';
import { recordedFetch } from './recorded';

// Online when OPENAI_API_KEY is set (the SDK also reads OPENAI_BASE_URL); recorded otherwise.
const online = Boolean(process.env.OPENAI_API_KEY);
const client = online ? new OpenAI() : new OpenAI({ apiKey: 'offline', fetch: recordedFetch() });
const run = await runAgent({
  client,
  model: process.env.OPENAI_MODEL ?? 'gpt-5.4',
  catalog: createCatalog(),
  prompt: 'Open a GitHub issue: the login page is blank on Safari.',
});
const namespaces = run.tools.filter((tool) => tool.type === 'namespace').length;
console.log(
  `${online ? 'Responses API' : 'Recorded responses'}: ${run.tools.length} tools sent every step (tool_search and ${namespaces} namespaces of deferred functions).`,
);
for (const step of run.steps) {
  console.log(`- ${step.action}${step.loaded ? ` -> ${step.loaded.join(', ')}` : ''}`);
}
console.log(run.answer);

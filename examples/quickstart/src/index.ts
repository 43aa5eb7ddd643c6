import type { StepRecord } from './agent-loop';
import { runDemo, TASK } from './demo';

const shorten = (text: string, length = 110) =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

console.log(`Task: ${TASK}\n`);
const run = await runDemo((step: StepRecord) => {
  console.log(`step ${step.step}  ${shorten(step.action, 90)}`);
  console.log(`        → ${shorten(step.result)}`);
});

const format = (value: number) => value.toLocaleString('en-US');
console.log(
  `\nTool-definition tokens per step (o200k_base), tool search vs. sending all ${run.catalogTools} tools.\nThe tools sent never change, so a provider's prompt cache keeps hitting through every load:\n`,
);
console.log('| step | action | tools sent | tokens sent | whole catalog | saved |');
console.log('|---:|---|---:|---:|---:|---:|');
for (const step of run.steps) {
  const saved = 1 - step.tokensSent / run.catalogTokens;
  const action = step.action.split('(')[0];
  console.log(
    `| ${step.step} | ${action} | ${step.toolsSent} | ${format(step.tokensSent)} | ${format(run.catalogTokens)} | ${(saved * 100).toFixed(1)}% |`,
  );
}
const totalSent = run.steps.reduce((sum, step) => sum + step.tokensSent, 0);
const totalCatalog = run.catalogTokens * run.steps.length;
console.log(
  `| total | | | ${format(totalSent)} | ${format(totalCatalog)} | ${((1 - totalSent / totalCatalog) * 100).toFixed(1)}% |`,
);
console.log(`\nAnswer: ${shorten(run.answer, 400)}`);
const { toolSearch, everyTool } = run.cost;
console.log(
  `\nThis conversation, priced under Anthropic's prompt cache (writes 1.25×, reads 0.1×, output 5×; in uncached input tokens):\n`,
);
console.log('| | requests | input tokens | priced |');
console.log('|---|---:|---:|---:|');
console.log(
  `| tool search | ${toolSearch.requests} | ${format(toolSearch.inputTokens)} | ${format(Math.round(toolSearch.priced))} |`,
);
console.log(
  `| every tool on every request | ${everyTool.requests} | ${format(everyTool.inputTokens)} | ${format(Math.round(everyTool.priced))} |`,
);
console.log(
  `\nTool search costs ${(toolSearch.priced / everyTool.priced).toFixed(2)}× sending every tool here. Its tool results are small; \`pnpm bench:cost\` prices conversations with real-sized ones.`,
);

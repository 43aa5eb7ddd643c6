import { runExample, TASK } from './agent';

const run = await runExample();
console.log(`Task: ${TASK}\n`);
console.log(`Catalog: ${run.catalogSize} tools. Tools sent to the model at each step:`);
run.steps.forEach((step, index) => {
  const did = run.toolCalls[index] ?? 'answer';
  console.log(
    `  step ${index + 1}: ${step.toolsSent.length} tools (${step.toolsSent.join(', ')}) → ${did}`,
  );
});
console.log(`\nAnswer: ${run.answer}`);

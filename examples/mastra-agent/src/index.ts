import { runExample, TASK } from './run-example';

console.log(`Task: ${TASK}\n`);
const run = await runExample();
for (const [position, step] of run.steps.entries()) {
  console.log(
    `step ${position + 1}  tools sent: ${step.toolsSent}/${run.catalogSize}  ${step.action}`,
  );
}
console.log(`\nAnswer: ${run.answer}`);

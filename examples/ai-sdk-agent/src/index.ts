import { gatewayModel, runChat } from './chat';

// Offline with a scripted model; set AI_GATEWAY_API_KEY (and optionally AI_MODEL) for a real one.
const model = gatewayModel();
const run = await runChat({ log: console.log, ...(model && { model }) });
const largest = Math.max(...run.turns.flatMap((turn) => turn.steps.map((step) => step.toolsSent)));
console.log(`At most ${largest} of ${run.catalogSize + 2} tools were sent on any step.`);

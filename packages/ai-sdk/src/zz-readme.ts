import { generateText, type LanguageModel, stepCountIs, type ToolSet } from 'ai';
import { createToolSearch } from 'tool-search-ai-sdk';

declare const model: LanguageModel;
declare const catalog: ToolSet;
declare function mcpToolsFor(userId: string): Promise<ToolSet>;

const toolSearch = createToolSearch({ tools: catalog });

const request = toolSearch.forRequest(await mcpToolsFor('user-1'));
await generateText({
  model,
  tools: request.tools, // the catalog, the request's tools and its meta-tools
  prepareStep: request.prepareStep,
  stopWhen: stepCountIs(10),
  prompt: 'What is in my drive?',
});

import { jsonSchema, type ToolSet, tool } from 'ai';
import { createLargeCatalog } from 'tool-search-testing';

/**
 * The 1,000-tool catalog as AI SDK tools (JSON schemas, as MCP tools come), each recording the
 * inputs it ran with, so a test asserts what really ran.
 */
export function createLargeAiCatalog() {
  const executions: Record<string, unknown[]> = {};
  const tools: ToolSet = {};
  for (const entry of createLargeCatalog()) {
    tools[entry.id] = tool({
      description: entry.description,
      inputSchema: jsonSchema<Record<string, unknown>>(entry.inputSchema),
      execute: async (input) => {
        executions[entry.id] = [...(executions[entry.id] ?? []), input];
        return { ok: true };
      },
    });
  }
  return { tools, executions, services: createLargeCatalog().map((entry) => entry.service) };
}

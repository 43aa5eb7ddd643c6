/** A catalog of numbered tools, the same in every test process. */
export interface CatalogTool {
  description: string;
}

/** `tool_000` ... : `count` tools with distinct descriptions. */
export function numberedCatalog(count: number): Record<string, CatalogTool> {
  const tools: Record<string, CatalogTool> = {};
  for (let index = 0; index < count; index++)
    tools[toolName(index)] = { description: `Numbered tool ${index} for the Redis store tests` };
  return tools;
}

/** The name of the numbered tool at `index`. */
export function toolName(index: number): string {
  return `tool_${String(index).padStart(3, '0')}`;
}

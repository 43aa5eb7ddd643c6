import { type ToolDescriptor, ToolIndex, type ToolSearchEngine } from 'tool-search-core';
import type { AiTool } from './describe-ai-tool';

/** The shape of ai 7's `toolSearch({ search })` callback: deferred tools in, ranked names out. */
export type RankTools = (options: {
  query: string;
  tools: ReadonlyArray<{ name: string; description?: string }>;
}) => string[];

/** Candidate sets indexed on the fly, kept for reuse: a generation offers the same set every step. */
const MAX_CACHED_INDEXES = 16;

/**
 * Builds the ranking callback for ai 7's native tool search. Tools of the engine's catalog are
 * ranked by everything the index knows (schema included); others by name and description.
 * It does not consult `filter`: the callback receives no request context.
 * @param engine - the engine whose catalog and ranking options are used
 */
export function createRankTools<TContext>(engine: ToolSearchEngine<AiTool, TContext>): RankTools {
  const indexes = new Map<string, ToolIndex>();
  const indexOf = (tools: ReadonlyArray<{ name: string; description?: string }>): ToolIndex => {
    if (tools.every((tool) => engine.catalog.has(tool.name))) return engine.index;
    const key = JSON.stringify(tools.map((tool) => [tool.name, tool.description]));
    let index = indexes.get(key);
    if (!index) {
      const descriptors = tools.map(
        (tool): ToolDescriptor =>
          engine.catalog.get(tool.name)?.descriptor ?? {
            id: tool.name,
            ...(tool.description !== undefined && { description: tool.description }),
          },
      );
      index = new ToolIndex(descriptors, engine.options.index);
      if (indexes.size >= MAX_CACHED_INDEXES) indexes.delete(indexes.keys().next().value!);
      indexes.set(key, index);
    }
    return index;
  };
  return ({ query, tools }) => {
    const candidates = new Set(tools.map((tool) => tool.name));
    if (candidates.size === 0) return [];
    return indexOf(tools)
      .search(query, {
        topK: candidates.size,
        minScore: engine.options.minScore,
        filter: (id) => candidates.has(id),
      })
      .map((hit) => hit.id);
  };
}

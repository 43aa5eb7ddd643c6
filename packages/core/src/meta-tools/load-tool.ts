import { suggestNames } from '../engine/suggest';
import type { ToolSearchSession } from '../engine/tool-search-session';
import { evictionNote, loadNames } from './load-names';
import { type LoadToolOutput, loadToolInput } from './meta-tool-schemas';

/** Names one `load_tool` call may ask for; more is a malformed call, not a real need. */
const MAX_NAMES_PER_LOAD = 50;

/** Executes `load_tool` for a session, answering in Mastra's result shapes. */
export async function loadTool<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  input: unknown,
): Promise<LoadToolOutput> {
  const parsed = loadToolInput.safeParse(input);
  const toolName = parsed.success ? parsed.data.toolName : undefined;
  const toolNames = parsed.success ? parsed.data.toolNames : undefined;
  const names = [...new Set([...(toolNames ?? []), ...(toolName ? [toolName] : [])])];
  if (names.length === 0) {
    return {
      success: false,
      message:
        'Give load_tool a toolName (one exact name from search results) or toolNames (several).',
    };
  }
  if (names.length > MAX_NAMES_PER_LOAD) {
    return { success: false, message: `Load at most ${MAX_NAMES_PER_LOAD} tools at once.` };
  }
  const outcome = await loadNames(session, names, 'load_tool');
  if (outcome.failed) {
    return {
      success: false,
      message:
        'Tools could not be loaded right now because the tool state is unavailable. Try again.',
    };
  }
  const single = toolNames === undefined && toolName !== undefined;
  if (single) {
    const name = toolName;
    if (outcome.notFound.length > 0) {
      const suggestions = await suggestAllowed(session, name);
      const hint =
        suggestions.length > 0
          ? ` Did you mean: ${suggestions.join(', ')}?`
          : ' Use search_tools to find tools.';
      return { success: false, message: `Tool "${name}" not found.${hint}`, toolName: name };
    }
    if (outcome.alreadyLoaded.length > 0) {
      return { success: true, message: `Tool "${name}" is already loaded.`, toolName: name };
    }
    return {
      success: true,
      message: `Tool "${name}" loaded. Call it from your next step.${evictionNote(outcome.evicted)}`,
      toolName: name,
      ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
    };
  }
  const parts: string[] = [];
  if (outcome.loaded.length > 0)
    parts.push(`Loaded: ${outcome.loaded.join(', ')}; call them from your next step`);
  if (outcome.alreadyLoaded.length > 0)
    parts.push(`Already loaded: ${outcome.alreadyLoaded.join(', ')}`);
  if (outcome.notFound.length > 0)
    parts.push(`Not found: ${outcome.notFound.join(', ')}; use search_tools to find tools`);
  return {
    success: outcome.notFound.length === 0,
    message: parts.join('. ') + evictionNote(outcome.evicted),
    loadedCount: outcome.loaded.length,
    ...(outcome.loaded.length > 0 && { loaded: outcome.loaded }),
    ...(outcome.alreadyLoaded.length > 0 && { alreadyLoaded: outcome.alreadyLoaded }),
    ...(outcome.notFound.length > 0 && { notFound: outcome.notFound }),
    ...(outcome.evicted.length > 0 && { evicted: outcome.evicted }),
  };
}

async function suggestAllowed<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  name: string,
): Promise<string[]> {
  const near = suggestNames(name, session.knownIds());
  const verdicts = await Promise.all(near.map((id) => session.allows(id, 'load')));
  return near.filter((_, position) => verdicts[position]);
}

import {
  createToolSearchEngine,
  type EmbedFunction,
  type FusionSettings,
  type LoadedToolsStore,
  type ToolRun,
  type ToolSearchEngine,
  type ToolSearchMode,
  toToolRecord,
} from 'tool-search-core';
import type { ToolSearchConfig } from '../config/gateway-config';
import { DEFAULT_EXPOSE } from '../config/gateway-config';
import type { GatewayTool } from '../upstream/upstream-manager';
import { errorText } from './gateway-text';

/** What the gateway's engine is built from, besides the tools. */
export interface GatewayEngineSettings {
  toolSearch: ToolSearchConfig;
  /** Runs a loaded tool for `call_tool`: the gateway's one way upstream. */
  runTool: (run: ToolRun<GatewayTool>) => Promise<unknown>;
  store: LoadedToolsStore;
  embed: EmbedFunction | undefined;
  fusion: FusionSettings | undefined;
  log: (message: string) => void;
}

/**
 * The core engine over the upstream tools, keyed by exposed name. `warn`: log pinned names no
 * upstream offers (only once the first starts are over; before, they may still come). The
 * previous engine's vectors are kept: they are keyed by tool text.
 */
export function buildGatewayEngine(
  tools: readonly GatewayTool[],
  settings: GatewayEngineSettings & {
    warn: boolean;
    previous: ToolSearchEngine<GatewayTool> | undefined;
  },
): ToolSearchEngine<GatewayTool> {
  const { toolSearch, store, embed, fusion, log, runTool } = settings;
  const names = new Set(tools.map((tool) => tool.name));
  const pinned = toolSearch.alwaysLoaded ?? [];
  for (const name of pinned) {
    if (settings.warn && !names.has(name))
      log(`toolSearch.alwaysLoaded names "${name}", which no upstream offers now`);
  }
  const { topK, minScore, autoLoad, maxLoadedTools, unloadTool, definitions } = toolSearch;
  const engine = createToolSearchEngine<GatewayTool>({
    tools: toToolRecord(tools.map((tool) => [tool.name, tool] as const)),
    describe: (tool, key) => ({
      id: key,
      description: tool.definition.description ?? tool.definition.title ?? '',
      ...(tool.definition.inputSchema && { inputSchema: tool.definition.inputSchema }),
    }),
    search: {
      ...(topK !== undefined && { topK }),
      ...(minScore !== undefined && { minScore }),
      ...(autoLoad !== undefined && { autoLoad }),
      ...(definitions !== undefined && { definitions }),
    },
    toolSearch: toolSearchMode(toolSearch),
    storage: store,
    // Each session says how its client sees loaded tools (revision 2026-07-28 clients: proxy).
    expose: toolSearch.expose ?? DEFAULT_EXPOSE,
    runTool,
    alwaysLoaded: pinned.filter((name) => names.has(name)),
    ...(maxLoadedTools !== undefined && { maxLoadedTools }),
    ...(unloadTool !== undefined && { unloadTool }),
    ...(embed && { embed, ...(fusion && { fusion }) }),
    onError: ({ operation, error }) => log(`${operation} failed: ${errorText(error)}`),
  });
  const previous = settings.previous?.vectorCache;
  if (previous && previous.size > 0) engine.vectorCache?.restore(previous.serialize());
  return engine;
}

/** The config's `enabled` and `threshold` as the core's `toolSearch` (default `"auto"`). */
export function toolSearchMode(config: ToolSearchConfig): ToolSearchMode {
  const enabled = config.enabled ?? 'auto';
  if (enabled !== 'auto') return enabled;
  return config.threshold === undefined ? 'auto' : { threshold: config.threshold };
}

/** Embeds the catalog's new tool texts in the background; a failure is logged, never thrown. */
export function warmGatewayEmbeddings(
  engine: ToolSearchEngine<GatewayTool>,
  settings: Pick<GatewayEngineSettings, 'fusion' | 'log'>,
): void {
  const cache = engine.vectorCache;
  if (!cache || engine.catalog.size === 0) return;
  const before = cache.size;
  engine.warmEmbeddings().then(
    () => {
      const added = cache.size - before;
      if (added > 0) {
        const model = settings.fusion?.model === undefined ? '' : ` with ${settings.fusion.model}`;
        settings.log(`embeddings: ${added} tool text(s) embedded${model}; search_tools fuses`);
      }
    },
    (error: unknown) => {
      settings.log(
        `embeddings: the catalog could not be embedded (${errorText(error)}); search_tools answers by BM25F alone until the endpoint answers`,
      );
    },
  );
}

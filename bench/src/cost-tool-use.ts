/**
 * How the scripted model of `bench:cost` gets a tool it needs: one rule for every row, which
 * reads only what the model is shown, so that every way of exposing tools is charged the same for
 * the same situation (a search that missed costs a second search everywhere).
 *
 * - A tool it can already call is called at once, without a search: it is among its tools (every
 *   tool sent, `toolSearch: 'auto'` below its threshold, or loaded under `expose: 'tools'`), or
 *   `call_tool` is offered and the model has loaded it or seen its definition in a search answer;
 *   natively, an earlier search loaded it.
 * - After a search that showed the tool: natively the search was the load, so it is called; with
 *   its definition in the answer (`tools`) and `call_tool` offered, it is called at once; else it
 *   is loaded with `load_tool`.
 * - After a search that did not show it, the model searches again with the tool's name. If that
 *   misses too, it loads the tool by name (natively: the use fails; an unloaded deferred tool
 *   cannot be called).
 */

/** What the model knows when it needs a tool, right after a search for it. */
export interface ToolUseSight {
  /** Natively deferred tools: a search's result is the load. */
  native: boolean;
  /** The last search listed the tool. */
  shown: boolean;
  /** A search answer carried the tool's definition (natively: loaded it). */
  defined: boolean;
  /** `call_tool` is among the model's tools. */
  callTool: boolean;
  /** The model has already searched for this tool by its name. */
  searchedByName: boolean;
}

/** The model's next move for a tool use. */
export type ToolUseMove =
  /** It has the tool: call it now (no request for the load). */
  | 'call'
  /** `load_tool` with the name the search showed. */
  | 'load'
  /** `search_tools` with the tool's name. */
  | 'search-by-name'
  /** `load_tool` with a name no search showed. */
  | 'load-by-name'
  /** Give up: the tool cannot be had. */
  | 'fail';

/**
 * The move after a search for a tool the model needs.
 * @param sight - what the model has been shown
 */
export function toolUseMove(sight: ToolUseSight): ToolUseMove {
  if (sight.native && (sight.shown || sight.defined)) return 'call';
  if (sight.shown) return sight.defined && sight.callTool ? 'call' : 'load';
  if (!sight.searchedByName) return 'search-by-name';
  return sight.native ? 'fail' : 'load-by-name';
}

/** What the model has of a tool before searching for it. */
export interface ToolHolding {
  native: boolean;
  /** The tool is among the model's tools. */
  offered: boolean;
  callTool: boolean;
  /** The model loaded it earlier (through `load_tool` or a definition). */
  loaded: boolean;
  defined: boolean;
}

/**
 * Whether the model can call a tool without searching for it.
 * @param holding - what the model has of the tool
 */
export function callableAtOnce(holding: ToolHolding): boolean {
  // Natively every catalog tool is listed, deferred: only a search's result loads one.
  if (holding.native) return holding.defined;
  if (holding.offered) return true;
  return holding.callTool && (holding.loaded || holding.defined);
}

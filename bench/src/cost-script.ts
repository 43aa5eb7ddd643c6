/**
 * The scripted conversation every row of `bench:cost` replays: a plan of model moves
 * (`cost-plan.ts`: search, load, call, answer), played by a scripted model that reads only what its
 * framework shows it (the tools it is offered, the tool results in its prompt).
 *
 * A turn starts with a user message and ends with a text answer. Loads are spread evenly; each
 * comes right after a search for one of the data set's labelled queries and is followed by a call
 * of the loaded tool. Between them the model calls a loaded tool again and answers, or, while
 * nothing is loaded, searches and answers. With a provider's native deferred loading the search's
 * result is the load: a load step whose tool the search found makes no model call, and one whose
 * tool it missed searches again by the tool's name.
 */

import { CALL_TOOL_NAME as CALL_TOOL } from 'tool-search-core';
import { exampleArguments } from './cost-arguments';
import type { PlanStep } from './cost-plan';
import type { DataQuery, DataTool } from './data';

/**
 * How the model reaches catalog tools in a row. `'native'`: the provider's deferred loading, where
 * a search's result is itself the load (the tools it found are callable from the next step on).
 */
export type Exposure = 'every-tool' | 'tools' | 'proxy' | 'native';

/** A tool result the model sees in its prompt. */
export interface SeenResult {
  toolName: string;
  /** The output as an object, or its JSON text. */
  output: unknown;
}

/** What the model is shown on a call. */
export interface ModelView {
  toolNames: readonly string[];
  /** Tool results in the prompt, oldest first. */
  results: readonly SeenResult[];
}

/** The model's move on a call. */
export type ModelAction =
  | { toolName: string; input: Record<string, unknown>; id: string }
  | { text: string };

/** Options of {@link ScriptedConversation}. */
export interface ScriptedConversationOptions {
  plan: readonly PlanStep[];
  queries: readonly DataQuery[];
  exposure: Exposure;
  /** The catalog by data id. */
  tools: ReadonlyMap<string, DataTool>;
  /** The name a row exposes a data tool under (the gateway prefixes its server's name). */
  nameOf?: (id: string) => string;
  /** The data id of an exposed name. */
  idOf?: (name: string) => string | undefined;
}

/** What a conversation did, besides its requests. */
export interface ConversationTally {
  /** `search_tools` answers the model read, and how many of them listed no tool. */
  searches: number;
  emptySearches: number;
  /** Loads whose search did not show the labelled tool (it was loaded by name anyway). */
  searchMisses: number;
  loads: number;
  /** Loads the plan asked for that could not happen (the search found nothing loadable). */
  missedLoads: number;
  /** Catalog tool calls, and how many of them had arguments the schema accepts. */
  calls: number;
  validCalls: number;
}

/**
 * Plays a plan. The driver sends `nextUserMessage()` while `finished` is false and runs its
 * framework's loop; the framework's model calls `act(view)` on every call.
 */
export class ScriptedConversation {
  readonly tally: ConversationTally = {
    searches: 0,
    emptySearches: 0,
    searchMisses: 0,
    loads: 0,
    missedLoads: 0,
    calls: 0,
    validCalls: 0,
  };
  /** Set when a proxy row's adapter offers no `call_tool`: the row is not applicable. */
  unsupported = false;
  readonly #options: ScriptedConversationOptions;
  readonly #nameOf: (id: string) => string;
  readonly #idOf: (name: string) => string | undefined;
  #position = 0;
  /** Exposed names of the tools loaded so far, in load order. */
  readonly #loaded: string[] = [];
  #fillerCalls = 0;
  #resultsRead = 0;
  #lastSearch: string[] = [];
  #pendingLoad: string | undefined;
  /** `'native'`: every tool a search has loaded so far (all of each search's results). */
  readonly #found = new Set<string>();

  constructor(options: ScriptedConversationOptions) {
    this.#options = options;
    this.#nameOf = options.nameOf ?? ((id) => id);
    this.#idOf = options.idOf ?? ((name) => (options.tools.has(name) ? name : undefined));
    this.#skipUnplayed();
  }

  /** The plan being played. */
  get plan(): readonly PlanStep[] {
    return this.#options.plan;
  }

  /** Whether every planned move has been played. */
  get finished(): boolean {
    return this.#position >= this.#options.plan.length || this.unsupported;
  }

  /** The user message that opens the next turn: the query its first search uses, if any. */
  nextUserMessage(): string {
    const { plan, queries } = this.#options;
    for (let index = this.#turnStart(); index < plan.length; index++) {
      const step = plan[index]!;
      if (step.kind === 'answer') break;
      if (step.kind === 'search') return queries[step.query]!.query;
    }
    return 'Please do that again with the tools you have.';
  }

  /** The model's move for this call. */
  act(view: ModelView): ModelAction {
    const { plan, exposure } = this.#options;
    if (exposure === 'proxy' && !view.toolNames.includes(CALL_TOOL)) {
      this.unsupported = true;
      return { text: 'n/a' };
    }
    this.#read(view);
    this.#skipLoadDoneBySearch();
    const index = this.#position;
    const step = plan[index];
    this.#position++;
    const action = step === undefined ? { text: 'Done.' } : this.#move(step, index);
    this.#skipUnplayed();
    return action;
  }

  #move(step: PlanStep, index: number): ModelAction {
    const id = `call_${index}`;
    switch (step.kind) {
      case 'search':
        return {
          toolName: 'search_tools',
          input: { query: this.#options.queries[step.query]!.query },
          id,
        };
      case 'load': {
        const target = this.#loadTarget(step.query);
        if (target === undefined) {
          this.tally.missedLoads++;
          return { text: `Nothing to load for request ${step.query + 1}.` };
        }
        this.#pendingLoad = target;
        // Natively, a model that has not found the tool searches for it by name.
        return this.#options.exposure === 'native'
          ? { toolName: 'search_tools', input: { query: target, limit: 1 }, id }
          : { toolName: 'load_tool', input: { toolName: target }, id };
      }
      case 'call': {
        const afterLoad = this.#options.plan[index - 1]?.kind === 'load';
        const name = afterLoad
          ? this.#loaded.at(-1)
          : this.#loaded[this.#fillerCalls++ % Math.max(this.#loaded.length, 1)];
        if (name === undefined) return { text: `No tool is loaded (step ${index + 1}).` };
        return this.#call(name, id);
      }
      case 'answer':
        return { text: `Here is the answer to step ${index + 1}.` };
    }
  }

  #call(name: string, id: string): ModelAction {
    const tool = this.#options.tools.get(this.#idOf(name) ?? '');
    const valid = tool === undefined ? undefined : exampleArguments(tool.inputSchema);
    this.tally.calls++;
    if (valid !== undefined) this.tally.validCalls++;
    const args = valid ?? {};
    return this.#options.exposure === 'proxy'
      ? { toolName: CALL_TOOL, input: { name, arguments: args }, id }
      : { toolName: name, input: args, id };
  }

  /**
   * The query's labelled tool, whether or not the last search showed it: every row does the same
   * work (the same loads and calls), so the rows differ only in what their mechanism sends. How
   * often a search shows the right tool is `bench:quality`'s measure; a row whose search missed it
   * is counted (`searchMisses`), as a model would then have searched again or named the tool.
   */
  #loadTarget(query: number): string | undefined {
    const relevant = this.#options.queries[query]!.relevant[0];
    const wanted = relevant === undefined ? undefined : this.#nameOf(relevant);
    if (wanted !== undefined && !this.#lastSearch.includes(wanted)) this.tally.searchMisses++;
    return wanted ?? this.#lastSearch.find((name) => !this.#loaded.includes(name));
  }

  /** Reads the newest tool result: what a search found, whether a load succeeded. */
  #read(view: ModelView): void {
    // Only a result that came in since the last call: an answer step still shows the search before it.
    if (view.results.length <= this.#resultsRead) return;
    this.#resultsRead = view.results.length;
    const last = view.results.at(-1);
    if (last === undefined) return;
    const output = parseOutput(last.output);
    if (last.toolName === 'search_tools') {
      const results = Array.isArray(output.results) ? output.results : [];
      this.#lastSearch = results
        .map((result) => (result as { name?: unknown }).name)
        .filter((name): name is string => typeof name === 'string');
      this.tally.searches++;
      if (this.#lastSearch.length === 0) this.tally.emptySearches++;
      if (this.#options.exposure === 'native') this.#readNativeLoad();
    } else if (last.toolName === 'load_tool' && this.#pendingLoad !== undefined) {
      if (output.success === true) {
        this.#markLoaded(this.#pendingLoad);
      } else {
        this.tally.missedLoads++;
      }
      this.#pendingLoad = undefined;
    }
  }

  /** `'native'`: a search's results are loaded; the search a load step made settles that load. */
  #readNativeLoad(): void {
    for (const name of this.#lastSearch) this.#found.add(name);
    const pending = this.#pendingLoad;
    if (pending === undefined) return;
    if (this.#found.has(pending)) this.#markLoaded(pending);
    else this.tally.missedLoads++;
    this.#pendingLoad = undefined;
  }

  #markLoaded(name: string): void {
    if (!this.#loaded.includes(name)) this.#loaded.push(name);
    this.tally.loads++;
  }

  /**
   * `'native'`: a load step whose tool a search has already loaded needs no model call of its own
   * (the search's result was the load), so the conversation goes on to the next step.
   */
  #skipLoadDoneBySearch(): void {
    if (this.#options.exposure !== 'native') return;
    const step = this.#options.plan[this.#position];
    if (step?.kind !== 'load') return;
    const relevant = this.#options.queries[step.query]!.relevant[0];
    const wanted = relevant === undefined ? undefined : this.#nameOf(relevant);
    if (wanted === undefined || !this.#found.has(wanted)) return;
    this.#markLoaded(wanted);
    this.#position++;
  }

  /**
   * With every tool sent there is nothing to search or load: the plan's searches and loads are
   * skipped, and a load makes its labelled tool the one the next calls use.
   */
  #skipUnplayed(): void {
    if (this.#options.exposure !== 'every-tool') return;
    const { plan, queries } = this.#options;
    while (this.#position < plan.length) {
      const step = plan[this.#position]!;
      if (step.kind === 'search') this.#position++;
      else if (step.kind === 'load') {
        const relevant = queries[step.query]!.relevant[0];
        if (relevant !== undefined) {
          this.#loaded.push(this.#nameOf(relevant));
          this.tally.loads++;
        }
        this.#position++;
      } else break;
    }
  }

  /** Where the current turn starts in the plan: after the last answer before the position. */
  #turnStart(): number {
    const { plan } = this.#options;
    let index = this.#position;
    // Skipped searches and loads (every tool) belong to the turn that starts before them.
    while (index > 0 && plan[index - 1]!.kind !== 'answer') index--;
    return index;
  }
}

function parseOutput(output: unknown): Record<string, unknown> {
  let value = output;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * The scripted conversation every row of `bench:cost` replays: a plan of model moves
 * (`cost-plan.ts`: search, load, call, answer), played by a scripted model that reads only what its
 * framework shows it (the tools it is offered, the tool results in its prompt).
 *
 * A turn starts with a user message and ends with a text answer. Each load is a tool use: the
 * model searches for one of the data set's labelled requests and gets its labelled tool, by the
 * rule of `cost-tool-use.ts` (the same in every row), then calls it. Between tool uses it calls
 * the tools it has again and answers.
 */

import { CALL_TOOL_NAME as CALL_TOOL } from 'tool-search-core';
import { exampleArguments } from './cost-arguments';
import { ConversationContent } from './cost-content';
import {
  type ConversationTally,
  type Exposure,
  emptyTally,
  type ModelAction,
  type ModelView,
} from './cost-model-types';
import type { PlanStep } from './cost-plan';
import { loadSucceeded, readSearchAnswer } from './cost-search-answer';
import { callableAtOnce, toolUseMove } from './cost-tool-use';
import type { DataQuery, DataTool } from './data';

export type { ConversationTally, Exposure, ModelAction, ModelView } from './cost-model-types';
export type { SeenResult } from './cost-search-answer';

/** The meta-tool that searches, in every row (the native rows' search tool too). */
const SEARCH_TOOL = 'search_tools';

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
  /** User turns, answers and tool results; default: minimal. */
  content?: ConversationContent;
}

/** A tool use in progress: the request it started at, and whether it got its tool. */
interface ToolUse {
  start: number;
  loaded: boolean;
  searchedByName: boolean;
}

/**
 * Plays a plan. The driver sends `nextUserMessage()` while `finished` is false and runs its
 * framework's loop; the framework's model calls `act(view)` on every call.
 */
export class ScriptedConversation {
  readonly tally: ConversationTally = emptyTally();

  /** Set when a proxy row's adapter offers no `call_tool`: the row is not applicable. */
  unsupported = false;
  readonly #options: ScriptedConversationOptions;
  readonly #content: ConversationContent;
  readonly #nameOf: (id: string) => string;
  readonly #idOf: (name: string) => string | undefined;
  #position = 0;
  #requests = 0;
  #turns = 0;
  #turnStarted = false;
  #lastCallStep = -1;
  /** Exposed names of the tools loaded so far, in load order. */
  readonly #loaded: string[] = [];
  #fillerCalls = 0;
  #resultsRead = 0;
  #lastSearch: string[] = [];
  /** Tools whose definitions a search answer carried (natively: every tool a search loaded). */
  readonly #defined = new Set<string>();
  #pendingLoad: string | undefined;
  #use: ToolUse | undefined;

  constructor(options: ScriptedConversationOptions) {
    this.#options = options;
    this.#content = options.content ?? ConversationContent.minimal();
    this.#nameOf = options.nameOf ?? ((id) => id);
    this.#idOf = options.idOf ?? ((name) => (options.tools.has(name) ? name : undefined));
  }

  /** The plan being played. */
  get plan(): readonly PlanStep[] {
    return this.#options.plan;
  }

  /** Whether every planned move has been played. */
  get finished(): boolean {
    return this.#position >= this.#options.plan.length || this.unsupported;
  }

  /** Model requests per tool use, averaged over the uses that got their tool. */
  get requestsPerToolUse(): number | undefined {
    const { toolUses, useRequests } = this.tally;
    return toolUses === 0 ? undefined : useRequests / toolUses;
  }

  /** The user message that opens the next turn: the request its first search is for, if any. */
  nextUserMessage(): string {
    const { plan, queries } = this.#options;
    let request: string | undefined;
    for (let index = this.#turnStart(); index < plan.length; index++) {
      const step = plan[index]!;
      if (step.kind === 'answer') break;
      if (step.kind === 'search') {
        request = queries[step.query]!.query;
        break;
      }
    }
    this.#turnStarted = true;
    return this.#content.userMessage(this.#turns++, request);
  }

  /** Whether this request is the first of its turn (asked once per request, by the recorder). */
  takeTurnStart(): boolean {
    const started = this.#turnStarted;
    this.#turnStarted = false;
    return started;
  }

  /** The text the catalog tool of the latest call returns (`undefined`: minimal content). */
  currentToolResult(): string | undefined {
    return this.#content.toolResult(this.#lastCallStep);
  }

  /** The model's move for this call. */
  act(view: ModelView): ModelAction {
    this.#requests++;
    const offers = (name: string) => view.toolNames.includes(name);
    if (this.#options.exposure === 'proxy' && offers(SEARCH_TOOL) && !offers(CALL_TOOL)) {
      this.unsupported = true;
      return { text: 'n/a' };
    }
    this.#read(view);
    for (;;) {
      const index = this.#position;
      const step = this.#options.plan[index];
      if (step === undefined) {
        this.#position++;
        return { text: 'Done.' };
      }
      const action = this.#move(step, index, view);
      if (action !== undefined) return action;
    }
  }

  /** The move for a step, or `undefined` when the step needs no request (the position moved on). */
  #move(step: PlanStep, index: number, view: ModelView): ModelAction | undefined {
    // One id per request: a step may take two (a search again by name, then its load).
    const id = `call_${this.#requests}`;
    switch (step.kind) {
      case 'search': {
        this.#use = { start: this.#requests, loaded: false, searchedByName: false };
        const wanted = this.#wanted(step.query);
        if (wanted !== undefined && this.#callable(wanted, view)) {
          // The model already has the tool: no search, no load.
          this.#markLoaded(wanted);
          this.#position += 2;
          return undefined;
        }
        this.#position++;
        return this.#search(this.#options.queries[step.query]!.query, id);
      }
      case 'load':
        return this.#load(step.query, view, id);
      case 'call':
        return this.#callStep(index, view, id);
      case 'answer':
        this.#position++;
        return { text: this.#content.answer(index) };
    }
  }

  #load(query: number, view: ModelView, id: string): ModelAction | undefined {
    const wanted =
      this.#wanted(query) ?? this.#lastSearch.find((name) => !this.#loaded.includes(name));
    const use = this.#use;
    if (wanted === undefined || use === undefined) {
      this.tally.missedLoads++;
      this.#position++;
      return undefined;
    }
    const move = toolUseMove({
      native: this.#options.exposure === 'native',
      shown: this.#lastSearch.includes(wanted),
      defined: this.#defined.has(wanted),
      callTool: view.toolNames.includes(CALL_TOOL),
      searchedByName: use.searchedByName,
    });
    if (move === 'search-by-name') {
      use.searchedByName = true;
      this.tally.searchMisses++;
      return this.#search(wanted, id);
    }
    this.#position++;
    switch (move) {
      case 'call':
        if (this.#options.exposure !== 'native') this.tally.definitionCalls++;
        this.#markLoaded(wanted);
        return undefined;
      case 'fail':
        this.tally.missedLoads++;
        return undefined;
      case 'load-by-name':
        this.tally.namedLoads++;
        break;
    }
    this.#pendingLoad = wanted;
    return { toolName: 'load_tool', input: { toolName: wanted }, id };
  }

  #callStep(index: number, view: ModelView, id: string): ModelAction {
    this.#position++;
    const afterLoad = this.#options.plan[index - 1]?.kind === 'load';
    if (afterLoad) {
      const use = this.#use;
      this.#use = undefined;
      const name = this.#loaded.at(-1);
      if (use === undefined || !use.loaded || name === undefined) {
        return { text: `I found no tool for that (step ${index + 1}).` };
      }
      this.tally.toolUses++;
      this.tally.useRequests += this.#requests - use.start + 1;
      return this.#call(name, index, view, id);
    }
    const name = this.#loaded[this.#fillerCalls++ % Math.max(this.#loaded.length, 1)];
    if (name === undefined) return { text: `No tool is loaded (step ${index + 1}).` };
    return this.#call(name, index, view, id);
  }

  #search(query: string, id: string): ModelAction {
    return { toolName: SEARCH_TOOL, input: { query }, id };
  }

  #call(name: string, index: number, view: ModelView, id: string): ModelAction {
    const tool = this.#options.tools.get(this.#idOf(name) ?? '');
    const valid = tool === undefined ? undefined : exampleArguments(tool.inputSchema);
    this.tally.calls++;
    if (valid !== undefined) this.tally.validCalls++;
    this.#lastCallStep = index;
    const args = valid ?? {};
    const direct = view.toolNames.includes(name) || !view.toolNames.includes(CALL_TOOL);
    return direct
      ? { toolName: name, input: args, id }
      : { toolName: CALL_TOOL, input: { name, arguments: args }, id };
  }

  /** The exposed name of a request's labelled tool. */
  #wanted(query: number): string | undefined {
    const relevant = this.#options.queries[query]!.relevant[0];
    return relevant === undefined ? undefined : this.#nameOf(relevant);
  }

  /** Whether the model can call a tool without searching for it. */
  #callable(name: string, view: ModelView): boolean {
    return callableAtOnce({
      native: this.#options.exposure === 'native',
      offered: view.toolNames.includes(name),
      callTool: view.toolNames.includes(CALL_TOOL),
      loaded: this.#loaded.includes(name),
      defined: this.#defined.has(name),
    });
  }

  /** Reads the newest tool result: what a search found, whether a load succeeded. */
  #read(view: ModelView): void {
    // Only a result that came in since the last call: an answer step still shows the search before it.
    if (view.results.length <= this.#resultsRead) return;
    this.#resultsRead = view.results.length;
    const last = view.results.at(-1);
    if (last === undefined) return;
    if (last.toolName === SEARCH_TOOL) {
      const answer = readSearchAnswer(last.output);
      this.#lastSearch = answer.names;
      this.tally.searches++;
      if (answer.names.length === 0) this.tally.emptySearches++;
      // Natively every tool a search lists is loaded, its definition in the conversation.
      const defined = this.#options.exposure === 'native' ? answer.names : answer.defined;
      for (const name of defined) this.#defined.add(name);
    } else if (last.toolName === 'load_tool' && this.#pendingLoad !== undefined) {
      if (loadSucceeded(last.output)) this.#markLoaded(this.#pendingLoad);
      else this.tally.missedLoads++;
      this.#pendingLoad = undefined;
    }
  }

  #markLoaded(name: string): void {
    if (!this.#loaded.includes(name)) this.#loaded.push(name);
    if (this.#use !== undefined) this.#use.loaded = true;
    this.tally.loads++;
  }

  /** Where the current turn starts in the plan: after the last answer before the position. */
  #turnStart(): number {
    const { plan } = this.#options;
    let index = this.#position;
    while (index > 0 && plan[index - 1]!.kind !== 'answer') index--;
    return index;
  }
}

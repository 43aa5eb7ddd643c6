import type { RequestContext } from '@mastra/core/request-context';
import {
  contentHash,
  DEFAULT_MAX_THREADS,
  type PreselectOutcome,
  preloadTools,
  preselectTools,
  type ToolSearchEvents,
  type ToolSearchSession,
} from 'tool-search-core';
import { keepRequestResult } from './request-results';
import type {
  AnyMastraTool,
  ClassifierPreselect,
  PreselectClassifier,
  ToolSearchPreselect,
} from './tool-search-processor-options';

/** Mastra's default: a classifier less sure of its choice than this is ignored. */
const DEFAULT_MIN_PROBABILITY = 0.6;

/** Finds a classifier registered with Mastra by its id or key. */
export type ClassifierLookup = (id: string) => PreselectClassifier | undefined;

/** What a step's preselection is given. */
export interface PreselectStep {
  session: ToolSearchSession<AnyMastraTool, RequestContext>;
  /** The user's latest message. */
  message: string;
  /** The request's own state (Mastra's `args.state`), where a request without a store keeps its loads. */
  requestState: Record<string, unknown> | undefined;
}

/** How a {@link Preselector} finds classifiers and reports failures. */
export interface PreselectorOptions {
  /** Threads whose last message is remembered. */
  maxThreads?: number | undefined;
  /** The processor's `onError`; without one, a failure is warned on the console, as Mastra does. */
  onError?: ToolSearchEvents['onError'];
  /** Finds a classifier registered with Mastra. */
  lookup: ClassifierLookup;
}

/**
 * Loads tools from the user's message before the model's first step, once per message: a
 * classifier's choice (Mastra's contract) or the index's ranking (no model call). A failure never
 * fails the step; it is answered by loading nothing.
 */
export class Preselector {
  readonly #config: ToolSearchPreselect;
  /** The last message preselected for, per thread, least recently used first. */
  readonly #threads = new Map<string, string>();
  /** The same per request, for requests whose state lives with the request. */
  readonly #requests = new WeakMap<object, string>();
  readonly #maxThreads: number;
  readonly #checked = new WeakSet<object>();
  readonly #options: PreselectorOptions;

  /**
   * @param config - the `preselect` option, checked here (a classifier given by id is checked
   *   when first used)
   * @param options - remembered threads, failure reporting, registered classifiers
   * @throws when the classifier has no configured questions, the question is not one of them or
   *   not a choice question, or `tools` does not map exactly the question's choices; or when
   *   `minScore` is not a number or `maxTools` not a positive integer
   */
  constructor(config: ToolSearchPreselect, options: PreselectorOptions) {
    if (config === null || typeof config !== 'object')
      throw new TypeError('ToolSearchProcessor: `preselect` must be an object');
    if ('classifier' in config) {
      const minProbability = config.minProbability ?? DEFAULT_MIN_PROBABILITY;
      if (!(minProbability >= 0 && minProbability <= 1))
        throw new RangeError(
          `ToolSearchProcessor: preselect.minProbability must be between 0 and 1, got ${minProbability}`,
        );
      if (typeof config.classifier !== 'string') checkClassifier(config, config.classifier);
    } else if (!('minScore' in config)) {
      throw new TypeError(
        'ToolSearchProcessor: `preselect` takes a `classifier` (with `question` and `tools`) or a `minScore`',
      );
    } else if (typeof config.minScore !== 'number' || Number.isNaN(config.minScore)) {
      throw new RangeError(
        `ToolSearchProcessor: preselect.minScore must be a number, got ${String(config.minScore)}`,
      );
    } else if (
      config.maxTools !== undefined &&
      !(Number.isInteger(config.maxTools) && config.maxTools >= 1)
    ) {
      throw new RangeError(
        `ToolSearchProcessor: preselect.maxTools must be an integer >= 1, got ${config.maxTools}`,
      );
    }
    this.#config = config;
    this.#options = options;
    this.#maxThreads = options.maxThreads ?? DEFAULT_MAX_THREADS;
  }

  /**
   * Preselects for this step unless the same message was preselected for already (in the thread,
   * or in the request when its loads live with the request). Loads made without a store are kept
   * in the request's state, as the meta-tools' are; a failure is reported, never thrown.
   * @returns what was loaded, or `undefined` when nothing ran
   */
  async run(step: PreselectStep): Promise<PreselectOutcome | undefined> {
    const outcome = await this.#choose(step);
    if (!outcome) return undefined;
    const { session } = step;
    const loaded = [...outcome.loaded, ...outcome.alreadyLoaded];
    if (!session.usesStore && loaded.length > 0)
      keepRequestResult(step.requestState, {
        toolCallId: undefined,
        record: { toolName: 'load_tool', output: { success: true, loaded } },
      });
    if (outcome.error !== undefined) this.#report(session.threadId, outcome.error);
    return outcome;
  }

  #report(threadId: string | undefined, error: unknown): void {
    const { onError } = this.#options;
    if (!onError) {
      // Mastra warns on the console when preselect fails open; with onError, the app decides.
      console.warn(
        'ToolSearchProcessor: preselect failed; this step goes on without preselected tools.',
        error,
      );
      return;
    }
    try {
      onError({ threadId, operation: 'preselect', error });
    } catch {
      // Telemetry must never break the agent.
    }
  }

  async #choose(step: PreselectStep): Promise<PreselectOutcome | undefined> {
    const message = step.message.trim();
    if (message === '') return undefined;
    const seen = contentHash(message);
    const { session } = step;
    const thread = session.usesStore ? session.threadId : undefined;
    if (thread !== undefined) {
      if (this.#threads.get(thread) === seen) return undefined;
      this.#threads.delete(thread);
      this.#threads.set(thread, seen);
      if (this.#threads.size > this.#maxThreads)
        this.#threads.delete(this.#threads.keys().next().value!);
    } else if (step.requestState) {
      if (this.#requests.get(step.requestState) === seen) return undefined;
      this.#requests.set(step.requestState, seen);
    }
    const config = this.#config;
    if (!('classifier' in config)) {
      return preselectTools(session, message, {
        minScore: config.minScore,
        ...(config.maxTools !== undefined && { maxTools: config.maxTools }),
      });
    }
    let names: readonly string[];
    try {
      names = await this.#classify(config, message);
    } catch (error) {
      return { loaded: [], alreadyLoaded: [], skipped: [], evicted: [], error };
    }
    return preloadTools(session, names);
  }

  async #classify(config: ClassifierPreselect, message: string): Promise<readonly string[]> {
    const classifier =
      typeof config.classifier === 'string'
        ? this.#options.lookup(config.classifier)
        : config.classifier;
    if (!classifier) {
      throw new Error(
        `ToolSearchProcessor: preselect.classifier '${String(config.classifier)}' is not registered with Mastra; register it (new Mastra({ classifiers })) or pass the Classifier itself.`,
      );
    }
    if (!this.#checked.has(classifier)) {
      checkClassifier(config, classifier);
      this.#checked.add(classifier);
    }
    const result = await classifier.evaluate({
      state: message,
      ...(config.providerOptions && { providerOptions: config.providerOptions }),
    });
    const answer = result?.answers?.[config.question] as
      | { type?: unknown; choice?: unknown; probabilities?: Record<string, unknown> }
      | undefined;
    if (typeof answer?.choice !== 'string')
      throw new Error(
        `ToolSearchProcessor: the classifier gave no choice for question '${config.question}'`,
      );
    const probability = answer.probabilities?.[answer.choice];
    const minProbability = config.minProbability ?? DEFAULT_MIN_PROBABILITY;
    if (typeof probability === 'number' && probability < minProbability) return [];
    return Object.hasOwn(config.tools, answer.choice) ? config.tools[answer.choice]! : [];
  }
}

/**
 * A classifier registered with Mastra under this id or key, if Mastra registered the processor.
 * @param mastra - what Mastra passed to `__registerMastra`
 * @param id - the classifier's id, or the key it was registered under
 */
export function registeredClassifier(mastra: unknown, id: string): PreselectClassifier | undefined {
  const registry = mastra as Record<'getClassifierById' | 'getClassifier', unknown> | undefined;
  for (const getter of ['getClassifierById', 'getClassifier'] as const) {
    const get = registry?.[getter];
    if (typeof get !== 'function') continue;
    try {
      const found = get.call(registry, id) as PreselectClassifier | undefined;
      if (found) return found;
    } catch {
      // Mastra's getters throw for an unknown id; the other getter may know it.
    }
  }
  return undefined;
}

/**
 * Checks a classifier against the preselect configuration, as Mastra does at construction.
 * @throws an error naming what is wrong
 */
function checkClassifier(config: ClassifierPreselect, classifier: PreselectClassifier): void {
  if (classifier === null || typeof classifier?.evaluate !== 'function')
    throw new TypeError('ToolSearchProcessor: preselect.classifier must be a Classifier or its id');
  const name = classifier.id === undefined ? 'the classifier' : `classifier '${classifier.id}'`;
  const questions = classifier.questions;
  if (questions === undefined || questions === null || typeof questions !== 'object')
    throw new Error(
      `ToolSearchProcessor: preselect needs a classifier with configured questions; construct ${name} with \`questions\`.`,
    );
  const question = Object.hasOwn(questions, config.question)
    ? questions[config.question]
    : undefined;
  if (!question)
    throw new Error(
      `ToolSearchProcessor: preselect.question '${config.question}' is not configured on ${name} (it has: ${Object.keys(questions).join(', ')}).`,
    );
  if (question.type !== 'choice')
    throw new Error(
      `ToolSearchProcessor: preselect.question '${config.question}' must be a choice question; it is a ${String(question.type)} question.`,
    );
  const choices = Object.keys((question.criteria ?? {}) as object);
  const tools = config.tools;
  if (tools === null || typeof tools !== 'object')
    throw new TypeError('ToolSearchProcessor: preselect.tools must map each choice to tool names');
  const missing = choices.filter((choice) => !Object.hasOwn(tools, choice));
  if (missing.length > 0)
    throw new Error(
      `ToolSearchProcessor: preselect.tools must map every choice of '${config.question}' to tools ([] for none). Missing: ${missing.join(', ')}`,
    );
  const extra = Object.keys(tools).filter((choice) => !choices.includes(choice));
  if (extra.length > 0)
    throw new Error(
      `ToolSearchProcessor: preselect.tools maps choices that '${config.question}' cannot return: ${extra.join(', ')}`,
    );
  for (const [choice, names] of Object.entries(tools)) {
    if (!Array.isArray(names) || names.some((toolName) => typeof toolName !== 'string'))
      throw new TypeError(
        `ToolSearchProcessor: preselect.tools['${choice}'] must be a list of tool names`,
      );
  }
}

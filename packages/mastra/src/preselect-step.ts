import type { RequestContext } from '@mastra/core/request-context';
import {
  contentHash,
  DEFAULT_MAX_THREADS,
  type PreselectOutcome,
  preloadTools,
  preselectTools,
  type ToolSearchSession,
} from 'tool-search-core';
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
  /** The request's own state (Mastra's `args.state`), where a request without a store keeps things. */
  requestState: object | undefined;
  /** Finds a registered classifier, once Mastra has registered the processor. */
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

  /**
   * @param config - the `preselect` option, checked here (a classifier given by id is checked
   *   when first used)
   * @param options - `maxThreads`: threads whose last message is remembered
   * @throws when the classifier has no configured questions, the question is not one of them or
   *   not a choice question, or `tools` does not map exactly the question's choices
   */
  constructor(config: ToolSearchPreselect, options: { maxThreads?: number | undefined } = {}) {
    if (config === null || typeof config !== 'object')
      throw new TypeError('ToolSearchProcessor: `preselect` must be an object');
    if ('classifier' in config) {
      const minProbability = config.minProbability ?? DEFAULT_MIN_PROBABILITY;
      if (!(minProbability >= 0 && minProbability <= 1))
        throw new RangeError(
          `ToolSearchProcessor: preselect.minProbability must be between 0 and 1, got ${minProbability}`,
        );
      if (typeof config.classifier !== 'string') checkClassifier(config, config.classifier);
    } else if (!('minScore' in config) || typeof config.minScore !== 'number') {
      throw new TypeError(
        'ToolSearchProcessor: `preselect` takes a `classifier` (with `question` and `tools`) or a `minScore`',
      );
    }
    this.#config = config;
    this.#maxThreads = options.maxThreads ?? DEFAULT_MAX_THREADS;
  }

  /**
   * Preselects for this step unless the same message was preselected for already (in the thread,
   * or in the request when its loads live with the request).
   * @returns what was loaded, or `undefined` when nothing ran
   */
  async run(step: PreselectStep): Promise<PreselectOutcome | undefined> {
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
      names = await this.#classify(config, message, step.lookup);
    } catch (error) {
      return { loaded: [], alreadyLoaded: [], skipped: [], evicted: [], error };
    }
    return preloadTools(session, names);
  }

  async #classify(
    config: ClassifierPreselect,
    message: string,
    lookup: ClassifierLookup,
  ): Promise<readonly string[]> {
    const classifier =
      typeof config.classifier === 'string' ? lookup(config.classifier) : config.classifier;
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

/** The text of the user's latest message, from the step's messages or its message list. */
export function latestUserText(args: { messages?: unknown; messageList?: unknown }): string {
  let messages: unknown = args.messages;
  if (!Array.isArray(messages)) {
    try {
      messages = (
        args.messageList as { get?: { all?: { db?: () => unknown } } } | undefined
      )?.get?.all?.db?.();
    } catch {
      messages = undefined;
    }
  }
  if (!Array.isArray(messages)) return '';
  for (let position = messages.length - 1; position >= 0; position--) {
    const message = messages[position] as { role?: unknown; content?: unknown } | undefined;
    if (message?.role === 'user') return textOf(message.content);
  }
  return '';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  const fields = content as { parts?: unknown; content?: unknown } | undefined;
  if (Array.isArray(fields?.parts)) {
    const texts = fields.parts
      .filter((part) => part?.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string);
    if (texts.length > 0) return texts.join('\n');
  }
  if (Array.isArray(content))
    return content
      .filter((part) => part?.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('\n');
  return typeof fields?.content === 'string' ? fields.content : '';
}

/**
 * What a `bench:cost` conversation says besides its tool calls: the user's turns, the model's
 * answers and the catalog tools' results. Two kinds:
 *
 * - `'real'` (the default): tool results are real MCP tool outputs (`cost-mcp-outputs.ts`), one
 *   drawn uniformly per call; user turns and answers are sized from log-normal distributions
 *   (below, with their sources) and made of real text: a user turn is the request the turn
 *   searches for followed by other requests of the data set; an answer is consecutive sentences
 *   of the MCP packages' own documentation.
 * - `'minimal'`: the script as it was before issue 31: one-line user turns, one-sentence answers,
 *   `{ status, tool }` results.
 *
 * Every draw is a pure function of the seed, the kind and the plan step (`cost-random.ts`), so
 * every row of a scenario gets the same text at the same step, and a run repeats.
 */
import { encode } from 'gpt-tokenizer';
import { type McpOutput, markdownDocuments, proseParagraphs } from './cost-mcp-outputs';
import { drawLogNormal, type LogNormal, seededRandom } from './cost-random';

/** Which content a conversation carries. */
export type ContentMode = 'real' | 'minimal';

/**
 * A user turn's tokens: log-normal with mean 65 and σ 1.0. LMSYS-Chat-1M averages 260 ± 347
 * tokens per turn, a user message and its answer, counted with tiktoken (Xu et al., "Magpie",
 * ICLR 2025, Table 4; read 2026-12-02): σ 1.0 is that spread (coefficient of variation 1.33,
 * σ = √ln(1 + 1.33²)), and the 1 : 3 split between the user and the answer is this benchmark's
 * assumption. Never shorter than the request the turn searches for.
 */
export const USER_TURN_TOKENS: LogNormal = {
  meanTokens: 65,
  sigma: 1.0,
  minTokens: 8,
  maxTokens: 1_000,
};

/** An answer's tokens: log-normal with mean 195 and σ 1.0 (the other three quarters, above). */
export const ANSWER_TOKENS: LogNormal = {
  meanTokens: 195,
  sigma: 1.0,
  minTokens: 20,
  maxTokens: 1_500,
};

/** The minimal script's user turn when the turn searches for nothing. */
const MINIMAL_USER_TURN = 'Please do that again with the tools you have.';
/** Draws one user turn may take: bounds the loop when the pool holds only the turn's request. */
const MAX_DRAWS = 200;

/** A piece of text with its token count. */
interface Sized {
  text: string;
  tokens: number;
}

/** The texts conversations draw from. */
export interface ContentPool {
  /** Real tool outputs, each drawn with the same probability. */
  toolResults: readonly string[];
  /** Sentences of documentation, in reading order: answers take runs of them. */
  prose: readonly string[];
  /** Users' requests (a data set's queries): a user turn adds them after its own. */
  requests: readonly string[];
}

function sized(texts: readonly string[]): Sized[] {
  return texts.map((text) => ({ text, tokens: encode(text).length }));
}

/** Each pool's texts with their token counts, counted once for all its scenarios. */
const sizedPools = new WeakMap<ContentPool, { prose: Sized[]; requests: Sized[] }>();

function sizedPool(pool: ContentPool | undefined): { prose: Sized[]; requests: Sized[] } {
  if (pool === undefined) return { prose: [], requests: [] };
  let found = sizedPools.get(pool);
  if (found === undefined) {
    found = { prose: sized(pool.prose), requests: sized(pool.requests) };
    sizedPools.set(pool, found);
  }
  return found;
}

/** Sentences of markdown documents' prose, in order. */
export function proseSentences(documents: readonly string[]): string[] {
  return documents.flatMap((document) =>
    proseParagraphs(document).flatMap(
      (paragraph) => paragraph.match(/[^.!?]+[.!?]+(?:\s|$)/g)?.map((part) => part.trim()) ?? [],
    ),
  );
}

/**
 * The pool of a data set's conversations: every MCP output as a tool result, the sentences of the
 * markdown documents among them as answers, the data set's queries as users' requests.
 * @param outputs - from `collectMcpOutputs()`
 * @param requests - the data set's query texts
 */
export function contentPool(
  outputs: readonly McpOutput[],
  requests: readonly string[],
): ContentPool {
  return {
    toolResults: outputs.map((output) => output.text),
    prose: proseSentences(markdownDocuments(outputs).map((document) => document.text)),
    requests,
  };
}

/** Options of {@link ConversationContent}. */
export interface ConversationContentOptions {
  mode: ContentMode;
  /** Required for `'real'`. */
  pool?: ContentPool;
  /** Every draw starts from it: the same seed, the same conversation. */
  seed: string;
}

/** The content of one scenario's conversations: the same for every row that plays it. */
export class ConversationContent {
  readonly mode: ContentMode;
  readonly #seed: string;
  readonly #results: readonly string[];
  readonly #prose: readonly Sized[];
  readonly #requests: readonly Sized[];

  constructor(options: ConversationContentOptions) {
    this.mode = options.mode;
    this.#seed = options.seed;
    const pool = options.pool;
    if (options.mode === 'real' && (pool === undefined || pool.toolResults.length === 0)) {
      throw new Error("content 'real' needs a pool with tool results");
    }
    this.#results = pool?.toolResults ?? [];
    const { prose, requests } = sizedPool(pool);
    this.#prose = prose;
    this.#requests = requests;
  }

  /** Minimal content: the script before issue 31. */
  static minimal(): ConversationContent {
    return new ConversationContent({ mode: 'minimal', seed: 'minimal' });
  }

  #random(kind: string, index: number): () => number {
    return seededRandom(`${this.#seed}/${kind}/${index}`);
  }

  /**
   * The user message that opens turn `turn`.
   * @param turn - 0 for the conversation's first turn
   * @param request - the request the turn searches for, when it does
   */
  userMessage(turn: number, request: string | undefined): string {
    if (this.mode === 'minimal' || this.#requests.length === 0) {
      return request ?? MINIMAL_USER_TURN;
    }
    const random = this.#random('user', turn);
    const target = drawLogNormal(USER_TURN_TOKENS, random);
    const parts = request === undefined ? [] : [request];
    let tokens = request === undefined ? 0 : encode(request).length;
    for (let draw = 0; tokens < target && draw < MAX_DRAWS; draw++) {
      const next = this.#requests[Math.floor(random() * this.#requests.length)]!;
      if (next.text === request) continue;
      parts.push(next.text);
      tokens += next.tokens;
    }
    return parts.length === 0 ? MINIMAL_USER_TURN : parts.join(' ');
  }

  /**
   * The model's text answer at plan step `step`.
   * @param step - the plan index
   */
  answer(step: number): string {
    if (this.mode === 'minimal' || this.#prose.length === 0) {
      return `Here is the answer to step ${step + 1}.`;
    }
    const random = this.#random('answer', step);
    const target = drawLogNormal(ANSWER_TOKENS, random);
    let index = Math.floor(random() * this.#prose.length);
    const parts: string[] = [];
    let tokens = 0;
    while (tokens < target) {
      const sentence = this.#prose[index % this.#prose.length]!;
      parts.push(sentence.text);
      tokens += sentence.tokens;
      index++;
    }
    return parts.join(' ');
  }

  /**
   * The text a catalog tool returns at plan step `step`, or `undefined` for minimal content (the
   * tool then answers `{ status, tool }`).
   * @param step - the plan index of the call
   */
  toolResult(step: number): string | undefined {
    if (this.mode === 'minimal') return undefined;
    const random = this.#random('tool result', step);
    return this.#results[Math.floor(random() * this.#results.length)]!;
  }
}

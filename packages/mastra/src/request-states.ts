/** The parts of Mastra's step arguments that say which request a step belongs to. */
export interface RequestOfStep {
  /** Mastra's per-request processor state. */
  state?: unknown;
  requestContext?: unknown;
}

/**
 * The state each request keeps for the processor: Mastra's per-request processor state
 * (`args.state`) when the step has it, else one kept per request context object, for a caller that
 * drives steps without it. Either lives exactly as long as its request.
 */
export class RequestStates {
  readonly #byContext = new WeakMap<object, Record<string, unknown>>();

  /**
   * The request's state, created for its context the first time.
   * @param step - the step's arguments
   */
  of(step: RequestOfStep): Record<string, unknown> | undefined {
    const state = step.state;
    if (state !== null && typeof state === 'object') return state as Record<string, unknown>;
    const context = step.requestContext;
    if (context === null || typeof context !== 'object') return undefined;
    let kept = this.#byContext.get(context);
    if (!kept) {
      kept = {};
      this.#byContext.set(context, kept);
    }
    return kept;
  }

  /**
   * The state kept for a request context, if its request has one; never creates one.
   * @param requestContext - the request's context
   */
  peek(requestContext: unknown): Record<string, unknown> | undefined {
    return requestContext !== null && typeof requestContext === 'object'
      ? this.#byContext.get(requestContext)
      : undefined;
  }
}

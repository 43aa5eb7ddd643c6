import type { RequestContext } from '@mastra/core/request-context';

/**
 * The request context key whose value stands for the request: a symbol, so the copies Mastra
 * makes of a context for a tool run (merged with the run's context, or turned into a schema's
 * output) carry it, while a context rebuilt from its values or from JSON does not.
 */
const REQUEST_IDENTITY_KEY = 'toolSearch__request';

/** A request's identity: the context object itself, and the symbol it carries. */
export interface RequestIdentity {
  context: RequestContext;
  token: symbol | undefined;
}

/**
 * The identity of the request a context belongs to, marking the context the first time (with a
 * symbol under `toolSearch__request`, which `toJSON` leaves out).
 * @param requestContext - the request's context; `undefined` has no identity
 */
export function requestIdentityOf(
  requestContext: RequestContext | undefined,
): RequestIdentity | undefined {
  if (requestContext === null || typeof requestContext !== 'object') return undefined;
  return { context: requestContext, token: tokenOf(requestContext, { mark: true }) };
}

/**
 * Whether a tool run's request context belongs to the identified request: the same object, or a
 * copy Mastra made of it for the run. A run without a context is not refused: nothing says whose
 * it is, and Mastra's agent always passes one.
 * @param identity - the request the tool was resolved for
 * @param runContext - `requestContext` of the run's execution context
 */
export function isSameRequest(identity: RequestIdentity, runContext: unknown): boolean {
  if (runContext === undefined || runContext === null || runContext === identity.context) {
    return true;
  }
  return (
    identity.token !== undefined &&
    typeof runContext === 'object' &&
    tokenOf(runContext as RequestContext, { mark: false }) === identity.token
  );
}

function tokenOf(context: RequestContext, options: { mark: boolean }): symbol | undefined {
  try {
    if (typeof context.get !== 'function') return undefined;
    const token: unknown = context.get(REQUEST_IDENTITY_KEY as never);
    if (typeof token === 'symbol') return token;
    if (!options.mark || typeof context.set !== 'function') return undefined;
    const created = Symbol('tool-search request');
    context.set(REQUEST_IDENTITY_KEY as never, created as never);
    return created;
  } catch {
    // A context that refuses reads or writes (frozen, a proxy) is known by its object alone.
    return undefined;
  }
}

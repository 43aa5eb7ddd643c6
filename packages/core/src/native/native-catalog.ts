import type { ToolSearchSession } from '../engine/tool-search-session';
import type { JSONSchema, ToolDescriptor } from '../search/tool-descriptor';

/** One request's tools as a provider-native request lists them. */
export interface NativeCatalog {
  /** Pinned tools (`alwaysLoaded`) the filter allows: sent loaded, never deferred. */
  pinned: ToolDescriptor[];
  /** Every other tool the filter lets this request search (or all, see `deferred`): sent with `defer_loading`. */
  deferred: ToolDescriptor[];
}

/** The names both providers accept for a tool (Anthropic's and OpenAI's common pattern). */
const PROVIDER_TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/** Options of {@link listNativeTools}. */
export interface ListNativeToolsOptions {
  /** Named in the error for a tool name the provider would refuse. */
  provider: string;
  /**
   * Which tools to defer: only those the filter lets the request search (`'searchable'`: what
   * both providers send, since a deferred tool's name, description and schema reach the
   * provider), or every tool the request knows (`'known'`, denied ones included). `'searchable'`
   * asks the filter once per tool (the session keeps the answers, so its searches reuse them).
   */
  deferred: 'known' | 'searchable';
}

/**
 * The tools a native request sends, in the session's order (request-resolved tools, then the
 * catalog): the deferred ones as `options.deferred` says, and the pinned ones the `active` phase
 * allows. The same session (one request) must answer the searches.
 * @param session - the request
 * @param options - the provider, and which tools to defer
 * @throws a `TypeError` naming the tools whose names the provider would refuse
 */
export async function listNativeTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  options: ListNativeToolsOptions,
): Promise<NativeCatalog> {
  const pins = new Set(session.engine.options.alwaysLoaded ?? []);
  const [listed, pinnedAllowed] = await Promise.all([
    options.deferred === 'known'
      ? [...session.knownIds()].map((id) => session.lookup(id)!)
      : session.listTools('search'),
    Promise.all([...pins].map((id) => session.allows(id, 'active'))),
  ]);
  const pinned = [...pins]
    .filter((_, position) => pinnedAllowed[position])
    .flatMap((id) => {
      const entry = session.lookup(id);
      return entry ? [entry.descriptor] : [];
    });
  const deferred = listed
    .map((entry) => entry.descriptor)
    .filter((descriptor) => !pins.has(descriptor.id));
  assertToolNames([...pinned, ...deferred], options.provider);
  return { pinned, deferred };
}

/**
 * A tool's input schema as the providers take it: a JSON Schema object of `type: 'object'`,
 * `{ type: 'object', properties: {} }` for a tool without one.
 * @param descriptor - the tool as the index knows it
 */
export function toObjectSchema(descriptor: ToolDescriptor): { type: 'object' } & JSONSchema {
  const schema = descriptor.inputSchema;
  return schema && typeof schema === 'object' && !Array.isArray(schema)
    ? { ...schema, type: 'object' }
    : { type: 'object', properties: {} };
}

/**
 * Whether both providers accept a tool name (letters, digits, `_` and `-`).
 * @param name - a tool's name
 */
export function isProviderToolName(name: string): boolean {
  return PROVIDER_TOOL_NAME.test(name);
}

/** Throws, naming the first offenders, when a provider would refuse a tool's name. */
function assertToolNames(tools: readonly ToolDescriptor[], provider: string): void {
  const refused = tools.filter((tool) => !isProviderToolName(tool.id)).map((tool) => tool.id);
  if (refused.length === 0) return;
  const shown = refused
    .slice(0, 3)
    .map((id) => JSON.stringify(id))
    .join(', ');
  throw new TypeError(
    `tool-search-core/${provider}: ${refused.length} tool name(s) such as ${shown} are not accepted by the provider (letters, digits, "_" and "-" only); give describe() ids like "github__create_issue"`,
  );
}

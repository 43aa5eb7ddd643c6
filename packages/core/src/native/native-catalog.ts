import type { ToolSearchSession } from '../engine/tool-search-session';
import type { JSONSchema, ToolDescriptor } from '../search/tool-descriptor';

/** One request's tools as a provider-native request lists them. */
export interface NativeCatalog {
  /** Pinned tools (`alwaysLoaded`) the filter allows: sent loaded, never deferred. */
  pinned: ToolDescriptor[];
  /** Every other tool the filter lets this request search: sent with `defer_loading`. */
  deferred: ToolDescriptor[];
}

/** The names both providers accept for a tool (Anthropic's and OpenAI's common pattern). */
const PROVIDER_TOOL_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * The tools a native request sends, in the session's order (request-resolved tools, then the
 * catalog): a tool the filter denies in the `search` phase is left out, so its name never reaches
 * the provider, and a pinned tool is listed when the `active` phase allows it. The same session
 * (one request) must answer the searches, so that every reference names a listed tool.
 * @param session - the request
 * @param provider - named in the error for a tool name the provider would refuse
 * @throws a `TypeError` naming the tools whose names the provider would refuse
 */
export async function listNativeTools<TTool, TContext>(
  session: ToolSearchSession<TTool, TContext>,
  provider: string,
): Promise<NativeCatalog> {
  const pins = new Set(session.engine.options.alwaysLoaded ?? []);
  const [searchable, pinnedAllowed] = await Promise.all([
    session.listTools('search'),
    Promise.all([...pins].map((id) => session.allows(id, 'active'))),
  ]);
  const pinned = [...pins]
    .filter((_, position) => pinnedAllowed[position])
    .flatMap((id) => {
      const entry = session.lookup(id);
      return entry ? [entry.descriptor] : [];
    });
  const deferred = searchable
    .map((entry) => entry.descriptor)
    .filter((descriptor) => !pins.has(descriptor.id));
  assertToolNames([...pinned, ...deferred], provider);
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

/** Throws, naming the first offenders, when a provider would refuse a tool's name. */
function assertToolNames(tools: readonly ToolDescriptor[], provider: string): void {
  const refused = tools.filter((tool) => !PROVIDER_TOOL_NAME.test(tool.id)).map((tool) => tool.id);
  if (refused.length === 0) return;
  const shown = refused
    .slice(0, 3)
    .map((id) => JSON.stringify(id))
    .join(', ');
  throw new TypeError(
    `tool-search-core/${provider}: ${refused.length} tool name(s) such as ${shown} are not accepted by the provider (letters, digits, "_" and "-" only); give describe() ids like "github__create_issue"`,
  );
}

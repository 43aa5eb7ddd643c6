import { type Client, specTypeSchemas, type Tool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { isNestedDeeperThan } from '../gateway/argument-depth';
import { type ListCacheHints, listCacheHintsOf } from './list-cache-hints';

/** Pages of `tools/list` followed at most: a server that pages forever is cut off. */
export const MAX_LIST_PAGES = 100;
/**
 * The largest tool list the gateway takes from one upstream, in bytes of JSON: the MCP SDK's limit
 * for one stdio message (10 MiB), applied to HTTP upstreams too. A third-party server could
 * otherwise make the gateway index and hold any amount: a 50 MB list took 19 s and 700 MB of heap.
 */
export const MAX_TOOL_LIST_BYTES = 10 * 1024 * 1024;
/**
 * How deep one tool definition may nest, in JSON levels. Real schemas stay within a few dozen;
 * the MCP SDK's result validation recurses per level and ran out of stack on a 1,000-level
 * schema, failing the whole list, so deeper tools are left out one by one instead.
 */
export const MAX_TOOL_DEPTH = 256;

/** A tool an upstream listed that the gateway leaves out, and why. */
export interface RejectedTool {
  /** Its name as listed (cut for logs), or `(unnamed)`. */
  name: string;
  reason: string;
}

/**
 * The page shape alone: each tool is checked on its own below, so one unreadable tool costs only
 * itself, never the server's list.
 */
const PAGE_SCHEMA = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** Characters of a rejected tool's name kept in a log line. */
const MAX_LOGGED_NAME = 120;

/**
 * Reads an upstream's whole tool list, page by page, keeping each tool that is a valid MCP tool
 * definition nested at most {@link MAX_TOOL_DEPTH} levels and rejecting the others by name.
 * @throws when the list as a whole is unreadable, or over {@link MAX_TOOL_LIST_BYTES}
 */
export async function readToolList(
  client: Client,
  options: { timeout: number },
): Promise<{ tools: Tool[]; rejected: RejectedTool[]; truncated: boolean; hints: ListCacheHints }> {
  const tools: Tool[] = [];
  let hints: ListCacheHints = {};
  const rejected: RejectedTool[] = [];
  let cursor: string | undefined;
  let bytes = 0;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const request = {
      method: 'tools/list' as const,
      params: cursor === undefined ? {} : { cursor },
    };
    let result: { tools: unknown[]; nextCursor?: string | undefined };
    try {
      // The SDK's own validation of the whole page first: fast, and right for nearly every server.
      result = await client.request(request, { timeout: options.timeout });
    } catch (error) {
      // A page it cannot validate (one bad or 1,000-level-deep tool overflows it) is read again
      // loosely, and each tool is checked on its own below.
      if (!isValidationFailure(error)) throw error;
      result = await client.request(request, PAGE_SCHEMA, { timeout: options.timeout });
    }
    // The first page speaks for the list, as the SDK's own list cache reads it.
    if (page === 0) hints = listCacheHintsOf(result);
    for (const item of result.tools) {
      const size = jsonSize(item);
      bytes += size ?? 0;
      if (bytes > MAX_TOOL_LIST_BYTES) {
        throw new Error(
          `its tool list is over ${MAX_TOOL_LIST_BYTES / 2 ** 20} MiB of JSON, more than the gateway takes from one server`,
        );
      }
      const problem = size === undefined ? 'it cannot be serialized' : toolProblem(item);
      if (problem === undefined) tools.push(item as Tool);
      else rejected.push({ name: nameOf(item), reason: problem });
    }
    cursor = result.nextCursor;
    if (cursor === undefined) return { tools, rejected, truncated: false, hints };
  }
  return { tools, rejected, truncated: true, hints };
}

/** Whether a failed request failed on the answer's shape (not on the connection or the clock). */
function isValidationFailure(error: unknown): boolean {
  if (error instanceof RangeError) return true;
  const text = error instanceof Error ? `${error.name} ${error.message}` : '';
  return /invalid|validat|schema|expected/i.test(text) && !/timed out|closed/i.test(text);
}

/** Why a listed item is not a tool the gateway can offer, or `undefined` when it is one. */
function toolProblem(item: unknown): string | undefined {
  if (isNestedDeeperThan(item, MAX_TOOL_DEPTH))
    return `its definition nests more than ${MAX_TOOL_DEPTH} levels deep`;
  try {
    const checked = specTypeSchemas.Tool['~standard'].validate(item);
    if (checked instanceof Promise) return undefined;
    if (checked.issues) {
      const [issue] = checked.issues;
      const where = issue?.path?.map((key) => String(typeof key === 'object' ? key.key : key));
      return `it is not a valid MCP tool (${where?.length ? `${where.join('.')}: ` : ''}${issue?.message ?? 'invalid'})`;
    }
    return undefined;
  } catch (error) {
    return `it could not be read (${error instanceof Error ? error.message : String(error)})`;
  }
}

function jsonSize(item: unknown): number | undefined {
  try {
    return JSON.stringify(item)?.length ?? 0;
  } catch {
    return undefined;
  }
}

function nameOf(item: unknown): string {
  const name =
    item !== null && typeof item === 'object' ? (item as { name?: unknown }).name : undefined;
  if (typeof name !== 'string') return '(unnamed)';
  return name.length > MAX_LOGGED_NAME ? `${name.slice(0, MAX_LOGGED_NAME)}…` : name;
}

import {
  createTokenizer,
  type TokenizerOptions,
  ToolIndex,
  type ToolIndexOptions,
} from 'tool-search-core';
import { toExposedName } from 'tool-search-mcp';
import { CliError } from '../cli/cli-error';
import { type Catalog, type CatalogTool, toDescriptor } from '../source/catalog';
import { countJsonTokens, metaToolDefinitions, toFunctionDefinition } from './count-tokens';
import { DEFAULT_DUPLICATE_THRESHOLD, findNearDuplicates } from './near-duplicates';

/** The server name the gateway's name rule is checked with when a catalog names none. */
const DEFAULT_SERVER_NAME = 'tools';

/** A problem with a catalog that makes its tools harder to find. */
export type Finding =
  | { type: 'empty-description'; id: string; message: string }
  | { type: 'short-description'; id: string; description: string; terms: number; message: string }
  | { type: 'near-duplicate'; ids: [string, string]; similarity: number; message: string }
  | {
      type: 'name-collision';
      /** The colliding tools' ids, in catalog order; the gateway renames all but the first. */
      ids: string[];
      /** The name they all map to. */
      exposedName: string;
      message: string;
    }
  | {
      type: 'not-found-by-own-description';
      id: string;
      /** Where a search for its own description put it (from 1), or `null` past the first 50. */
      rank: number | null;
      /** What that search put first instead. */
      top: string[];
      message: string;
    };

/** What `tool-search inspect --json` prints. */
export interface InspectReport {
  /** Number of tools. */
  tools: number;
  tokens: {
    /** The whole catalog as function definitions (o200k_base): what a model is sent without tool search. */
    catalog: number;
    /** The meta-tools' definitions: what a model is sent with tool search before it loads anything. */
    metaTools: number;
  };
  /** Each tool's definition in tokens, in catalog order. */
  perTool: { id: string; tokens: number }[];
  /** Problems found, by type in the order of {@link Finding}, then catalog order. */
  findings: Finding[];
}

/** Options of {@link inspectCatalog}. */
export interface InspectCatalogOptions {
  /** Ranking options for the own-description check. */
  index?: ToolIndexOptions;
  /**
   * Hits scoring at or below this are dropped in the own-description check.
   * @default 0
   */
  minScore?: number;
  /**
   * A description with fewer analyzed terms (stop words dropped, e.g. "Gets the weather" has 2)
   * is reported as very short.
   * @default 3
   */
  minDescriptionTerms?: number;
  /**
   * Cosine similarity from which two tools are reported as near-duplicates.
   * @default 0.8
   */
  duplicateThreshold?: number;
  /** Meta-tool options for their token cost. */
  metaTools?: { autoLoad?: boolean; unloadTool?: boolean };
}

/**
 * Descriptions with fewer analyzed terms than this say too little to be found: two content words
 * ("get weather") barely beat the id itself, which is indexed anyway.
 */
export const DEFAULT_MIN_DESCRIPTION_TERMS = 3;
/** A tool should come back in the first 5 for its own description: what `search_tools` shows by default. */
const OWN_DESCRIPTION_TOP_K = 5;
/** How deep the own-description search looks to report a missed tool's rank. */
const OWN_DESCRIPTION_DEPTH = 50;

/**
 * Inspects a catalog: its size, its prompt tokens as function definitions against the
 * meta-tools', each tool's tokens, and findings that make tools hard to find (empty or very short
 * descriptions, near-duplicates, names that collide under the gateway's name rule, tools a search
 * for their own description does not put in the top 5).
 * @param catalog - the tools and the server name the name rule uses
 * @param options - ranking options and thresholds
 * @example
 * const report = inspectCatalog({ tools, label: 'tools.json', serverName: 'tools' });
 * console.log(report.tokens.catalog, report.findings.length);
 */
export function inspectCatalog(
  catalog: Catalog,
  options: InspectCatalogOptions = {},
): InspectReport {
  const { tools } = catalog;
  const perTool = tools.map((tool) => ({ id: tool.id, tokens: definitionTokens(tool) }));
  const tokenizerOption = options.index?.tokenizer;
  const tokenize =
    typeof tokenizerOption === 'function'
      ? tokenizerOption
      : createTokenizer((tokenizerOption ?? {}) as TokenizerOptions);
  const findings: Finding[] = [
    ...descriptionFindings(tools, tokenize, options.minDescriptionTerms),
    ...findNearDuplicates(tools, {
      threshold: options.duplicateThreshold ?? DEFAULT_DUPLICATE_THRESHOLD,
      tokenizer: tokenize,
    }).map(
      ({ ids, similarity }): Finding => ({
        type: 'near-duplicate',
        ids,
        similarity,
        message: `${ids[0]} and ${ids[1]} look alike to search (similarity ${similarity.toFixed(2)}): say what sets each apart`,
      }),
    ),
    ...collisionFindings(catalog),
    ...ownDescriptionFindings(tools, options),
  ];
  return {
    tools: tools.length,
    tokens: {
      catalog: countJsonTokens(tools.map(toFunctionDefinition)),
      metaTools: countJsonTokens(metaToolDefinitions(options.metaTools)),
    },
    perTool,
    findings,
  };
}

/**
 * A tool's definition in tokens.
 * @throws {CliError} when it cannot be serialized (a schema nested thousands of levels deep),
 * which means no model API could be sent it either
 */
function definitionTokens(tool: CatalogTool): number {
  try {
    return countJsonTokens([toFunctionDefinition(tool)]);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new CliError(
      `${tool.id}: its definition cannot be serialized to JSON (${error.message}), so no model could be sent it; flatten its inputSchema`,
      { cause: error },
    );
  }
}

function descriptionFindings(
  tools: readonly CatalogTool[],
  tokenize: (text: string) => string[],
  minTerms = DEFAULT_MIN_DESCRIPTION_TERMS,
): Finding[] {
  return tools.flatMap((tool): Finding[] => {
    if (tool.description.trim() === '') {
      return [
        {
          type: 'empty-description',
          id: tool.id,
          message: `${tool.id} has no description: search can match only its name and parameters`,
        },
      ];
    }
    const terms = tokenize(tool.description).length;
    if (terms >= minTerms) return [];
    return [
      {
        type: 'short-description',
        id: tool.id,
        description: tool.description,
        terms,
        message: `${tool.id} has a very short description (${JSON.stringify(tool.description)}): say what it does, to what, and when to use it`,
      },
    ];
  });
}

function collisionFindings(catalog: Catalog): Finding[] {
  const groups = new Map<string, string[]>();
  for (const tool of catalog.tools) {
    const exposed = toExposedName(
      tool.server ?? catalog.serverName ?? DEFAULT_SERVER_NAME,
      tool.name ?? tool.id,
    );
    const group = groups.get(exposed);
    if (group) group.push(tool.id);
    else groups.set(exposed, [tool.id]);
  }
  return [...groups]
    .filter(([, ids]) => ids.length > 1)
    .map(([exposedName, ids]) => ({
      type: 'name-collision',
      ids,
      exposedName,
      message: `${ids.join(', ')} all become ${exposedName} under the gateway's name rule (characters outside A-Z a-z 0-9 _ . - turn into _); the gateway renames all but the first with _2, _3...`,
    }));
}

function ownDescriptionFindings(
  tools: readonly CatalogTool[],
  options: InspectCatalogOptions,
): Finding[] {
  const index = new ToolIndex(tools.map(toDescriptor), options.index);
  const minScore = options.minScore ?? 0;
  return tools.flatMap((tool): Finding[] => {
    if (tool.description.trim() === '') return [];
    const hits = index.search(tool.description, { topK: OWN_DESCRIPTION_DEPTH, minScore });
    const position = hits.findIndex((hit) => hit.id === tool.id);
    if (position >= 0 && position < OWN_DESCRIPTION_TOP_K) return [];
    const rank = position >= 0 ? position + 1 : null;
    const top = hits.slice(0, 3).map((hit) => hit.id);
    return [
      {
        type: 'not-found-by-own-description',
        id: tool.id,
        rank,
        top,
        message: `a search for ${tool.id}'s own description ranks it ${rank === null ? `below ${OWN_DESCRIPTION_DEPTH}` : `#${rank}`}, after ${top.join(', ')}`,
      },
    ];
  });
}

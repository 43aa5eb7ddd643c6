/** The help texts of the `tool-search` command. */

const SOURCE_HELP = `Source (one of):
  FILE                   a JSON file: { "tools": [...] } (the tool-retrieval data format) or an
                         array of tools (MCP's { name, description, inputSchema } too)
  --mcp "COMMAND ARGS"   one MCP server started over stdio, e.g. --mcp "npx -y @scope/server"
  --config FILE          every server of an "mcpServers" config (the tool-search-mcp config)
  --name NAME            with --mcp: the server's name in exposed names (default: server)
  --connect-timeout MS   per-server start timeout (default: 10000)`;

const RANKING_HELP = `Ranking (what the tool-search-core ToolIndex takes; defaults are the library's):
  --min-score N          drop hits scoring N or less (default: 0)
  --weight FIELD=N       field weight (repeatable); FIELD: id, description, parameters,
                         parameterDescriptions, keywords (defaults 2, 1, 1, 1, 2)
  --exact-id-boost N     added when the query or one of its words is the id (default: 1)
  --word-id-boost N      added per query term that is one of the id's words (default: 0.5)
  --k1 N                 BM25 term-frequency saturation (default: 1.2)
  --b N | --b FIELD=N    BM25 length normalization, 0 to 1 (default: 0.75)
  --no-stem              no English stemming
  --no-stop-words        keep stop words
  --cjk MODE             Chinese/Japanese/Korean runs: bigram (default), segmenter or both`;

const EMBEDDINGS_HELP = `Semantic search (BM25F fused with an OpenAI-compatible embeddings endpoint, as the gateway does):
  --embeddings-url URL   e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama)
  --embeddings-model M   e.g. text-embedding-3-small (required with --embeddings-url)
  --embeddings-key-env NAME  the environment variable holding the API key
  --no-embeddings        BM25F alone, whatever the environment or the config says
  Without these flags: the --config file's "embeddings", else TOOL_SEARCH_EMBEDDINGS_URL,
  TOOL_SEARCH_EMBEDDINGS_MODEL and TOOL_SEARCH_EMBEDDINGS_API_KEY. Costs one embedding per tool
  and one per query.`;

const COMMON_HELP = `Output:
  --json                 one JSON document on stdout, for scripts
  --debug                stack traces and the MCP servers' logs on stderr
  --help`;

const EXIT_HELP = `Exit codes: 0 done, 1 usage error, 2 bad input (a missing or malformed file, a wrong
field, a server that does not start), 3 a check failed (--fail-under, --fail-on-findings),
130 stopped by a signal while MCP servers were starting (they were stopped first).`;

/** `tool-search --help`. */
export const MAIN_USAGE = `Usage: tool-search <command> [options]

See how findable a tool catalog is before a model tries.

Commands:
  search SOURCE "QUERY"  ranked hits with scores and the fields that matched
  eval FILE              recall@1/5/10, MRR@10 and nDCG@10 on labelled queries, and the worst ones
  inspect SOURCE         tool count, prompt tokens, per-tool tokens and findability problems
  serve --config FILE    the MCP gateway with tool search (the same as tool-search-mcp)

Run tool-search <command> --help for a command's options.

${EXIT_HELP}`;

/** Per-command help. */
export const COMMAND_USAGE = {
  search: `Usage: tool-search search FILE "QUERY" [options]
       tool-search search --mcp "COMMAND ARGS" "QUERY" [options]
       tool-search search --config FILE "QUERY" [options]

Ranks the catalog for QUERY as search_tools does, and shows which fields of each hit matched.

  --top-k N              hits shown (default: 5, or the config's toolSearch.topK)

${SOURCE_HELP}

${RANKING_HELP}

${EMBEDDINGS_HELP}

${COMMON_HELP}`,
  eval: `Usage: tool-search eval FILE [options]
       tool-search eval QUERIES --mcp "COMMAND ARGS" | --config CONFIG [options]

Ranks every labelled query of FILE ({ "tools": [...], "queries": [{ "query", "relevant": [ids] }] })
and prints recall@1, @5 and @10 (the share of a query's relevant tools in the top k, averaged over
queries), MRR@10, nDCG@10 and the worst queries with what came back instead. With --mcp or
--config the tools come from the servers and QUERIES only needs "queries" (ids as listed by the
source: the server's own names for --mcp, <server>__<tool> for --config).

  --worst N              worst queries listed (default: 10)
  --fail-under R         exit 3 when recall@5 is under R (for CI)

${SOURCE_HELP}

${RANKING_HELP}

${EMBEDDINGS_HELP}
  With an endpoint, the fused metrics are shown beside BM25F's; an endpoint that fails for the
  catalog or any query is an error (exit 2), not a silent mix of the two.

${COMMON_HELP}`,
  inspect: `Usage: tool-search inspect FILE | --mcp "COMMAND ARGS" | --config FILE [options]

Tool count, the prompt tokens (o200k_base) of the catalog as function definitions against the
meta-tools', each tool's tokens, and findings: empty or very short descriptions, near-duplicate
tools, names that collide under the gateway's name rule, and tools that a search for their own
description does not put in the top 5.

  --min-description-terms N   a description with fewer analyzed words is "very short" (default: 3)
  --duplicate-threshold X     cosine similarity from which tools are near-duplicates (default: 0.8)
  --fail-on-findings          exit 3 when there is any finding (for CI)
  --all                       list every finding and every tool (tables show the first ones)

${SOURCE_HELP}

${RANKING_HELP}

${COMMON_HELP}`,
} as const;

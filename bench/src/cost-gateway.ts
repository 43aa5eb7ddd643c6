/**
 * The gateway rows: the real `tool-search-mcp` gateway in this process, in front of an upstream
 * MCP server that serves the catalog (`cost-upstream.ts`, over stdio), and an MCP client session
 * per conversation over the SDK's in-memory transport. The client is the agent loop: before every
 * model call it lists the tools (a client that honours `notifications/tools/list_changed` sees
 * the list the gateway would announce), builds the request from the answer, the system prompt
 * (the application's plus the gateway's instructions, as MCP clients add them) and the
 * conversation, and sends each tool call through `tools/call`, putting the result's text content
 * into the conversation. Before each call it writes the text the conversation's catalog tool
 * returns at that step to a file the upstream answers from (`cost-upstream.ts`).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import {
  createToolSearchGateway,
  createUpstreamManager,
  type ToolSearchConfig,
} from 'tool-search-mcp';
import { SYSTEM_PROMPT } from './cost-recorder';
import type { ConversationMessage, ModelRequest } from './cost-request';
import { type AdapterRowSpec, type CostRow, exposureOf, type RowOptions } from './cost-row';
import type { SeenResult } from './cost-script';

const SOURCE = import.meta.dirname;
/** The upstream's server name: exposed tools are `catalog__<id>`. */
const SERVER = 'catalog';

/**
 * The gateway's `toolSearch` config for a row's options. The config is flat (`topK`, `expose`,
 * ...), so `search.*` moves up a level and `toolSearch` becomes `enabled` (and `threshold`):
 * `{ expose: 'proxy', search: { topK: 5, definitions: 3 }, toolSearch: true }` becomes
 * `{ expose: 'proxy', topK: 5, definitions: 3, enabled: true }`. `undefined` (the package's
 * defaults) gives no config.
 * @param options - the row's options
 */
export function gatewayToolSearch(options: RowOptions | undefined): ToolSearchConfig | undefined {
  if (options === undefined) return undefined;
  // The config's own names: `enabled` and `threshold` for the engine's `toolSearch`.
  const { search, toolSearch, ...rest } = options;
  const mode =
    toolSearch === undefined
      ? {}
      : typeof toolSearch === 'object'
        ? { enabled: 'auto' as const, threshold: toolSearch.threshold }
        : { enabled: toolSearch };
  return { ...search, ...rest, ...mode } as ToolSearchConfig;
}

function gatewayRow(spec: AdapterRowSpec): CostRow {
  return {
    key: spec.key,
    label: spec.label,
    exposure: exposureOf(spec.options),
    async prepare(data) {
      // The upstream serves exactly the row's catalog (a `--tools` subset too), from a file of its own.
      const dir = await mkdtemp(path.join(tmpdir(), 'bench-cost-'));
      const catalogFile = path.join(dir, 'catalog.json');
      const resultFile = path.join(dir, 'result.json');
      writeFileSync(resultFile, '{}');
      await writeFile(
        catalogFile,
        JSON.stringify({ name: data.name, tools: data.tools, queries: [] }),
      );
      const upstreams = createUpstreamManager({
        servers: {
          [SERVER]: {
            command: process.execPath,
            args: [
              '--conditions=tool-search-source',
              '--import',
              path.join(SOURCE, 'register-ts.ts'),
              path.join(SOURCE, 'cost-upstream.ts'),
              catalogFile,
              resultFile,
            ],
          },
        },
        log: () => undefined,
      });
      const gateway = createToolSearchGateway({
        upstreams,
        ...(spec.options && { toolSearch: gatewayToolSearch(spec.options) }),
        log: () => undefined,
      });
      await gateway.ready();
      const idOf = new Map(upstreams.tools.map((tool) => [tool.name, tool.definition.name]));
      const nameOf = new Map(upstreams.tools.map((tool) => [tool.definition.name, tool.name]));
      return {
        nameOf: (id) => nameOf.get(id) ?? id,
        idOf: (name) => idOf.get(name),
        async play(conversation, recorder) {
          const [clientSide, gatewaySide] = InMemoryTransport.createLinkedPair();
          await gateway.connect(gatewaySide);
          const client = new Client({ name: 'cost-bench', version: '1.0.0' });
          await client.connect(clientSide);
          const instructions = client.getInstructions();
          const system = instructions ? `${SYSTEM_PROMPT}\n\n${instructions}` : SYSTEM_PROMPT;
          const messages: ConversationMessage[] = [];
          const results: SeenResult[] = [];
          try {
            while (!conversation.finished) {
              messages.push({
                role: 'user',
                content: [{ type: 'text', text: conversation.nextUserMessage() }],
              });
              for (;;) {
                const { tools } = await client.listTools();
                const request: ModelRequest = {
                  tools: tools.map((listed) => ({
                    name: listed.name,
                    description: listed.description,
                    inputSchema: listed.inputSchema,
                  })),
                  system,
                  messages: [...messages],
                };
                const action = recorder.respond(request, {
                  toolNames: tools.map((listed) => listed.name),
                  results: [...results],
                });
                if ('text' in action) {
                  messages.push({
                    role: 'assistant',
                    content: [{ type: 'text', text: action.text }],
                  });
                  break;
                }
                messages.push({
                  role: 'assistant',
                  content: [
                    { type: 'tool_use', id: action.id, name: action.toolName, input: action.input },
                  ],
                });
                // Synchronous: the upstream reads it when the gateway forwards this call.
                writeFileSync(
                  resultFile,
                  JSON.stringify({ text: conversation.currentToolResult() }),
                );
                const result = await client.callTool({
                  name: action.toolName,
                  arguments: action.input,
                });
                const text = result.content
                  .map((part) => (part.type === 'text' ? part.text : JSON.stringify(part)))
                  .join('\n');
                results.push({ toolName: action.toolName, output: text });
                messages.push({
                  role: 'user',
                  content: [{ type: 'tool_result', toolUseId: action.id, content: text }],
                });
              }
            }
          } finally {
            await client.close();
          }
        },
        async close() {
          await gateway.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** The `tool-search-mcp` gateway, one row per spec (`cost-rows.ts`). */
export function gatewayRows(specs: readonly AdapterRowSpec[]): CostRow[] {
  return specs.map(gatewayRow);
}

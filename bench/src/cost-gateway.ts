/**
 * The gateway rows: the real `tool-search-mcp` gateway in this process, in front of an upstream
 * MCP server that serves the catalog (`cost-upstream.ts`, over stdio), and an MCP client session
 * per conversation over the SDK's in-memory transport. The client is the agent loop: before every
 * model call it lists the tools (a client that honours `notifications/tools/list_changed` sees
 * the list the gateway would announce), builds the request from the answer, the system prompt
 * (the application's plus the gateway's instructions, as MCP clients add them) and the
 * conversation, and sends each tool call through `tools/call`, putting the result's text content
 * into the conversation.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createToolSearchGateway, createUpstreamManager } from 'tool-search-mcp';
import { SYSTEM_PROMPT } from './cost-recorder';
import type { ConversationMessage, ModelRequest } from './cost-request';
import { COST_TOP_K, type CostRow } from './cost-row';
import type { Exposure, SeenResult } from './cost-script';

const SOURCE = import.meta.dirname;
/** The upstream's server name: exposed tools are `catalog__<id>`. */
const SERVER = 'catalog';

function gatewayRow(exposure: Exposure): CostRow {
  return {
    key: `mcp-${exposure}`,
    label: `tool-search-mcp gateway, expose: '${exposure}'`,
    exposure,
    async prepare(data) {
      // The upstream serves exactly the row's catalog (a `--tools` subset too), from a file of its own.
      const dir = await mkdtemp(path.join(tmpdir(), 'bench-cost-'));
      const catalogFile = path.join(dir, 'catalog.json');
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
            ],
          },
        },
        log: () => undefined,
      });
      const gateway = createToolSearchGateway({
        upstreams,
        toolSearch: { topK: COST_TOP_K, expose: exposure === 'proxy' ? 'proxy' : 'tools' },
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

/** The `tool-search-mcp` gateway in each exposure. */
export const gatewayRows = [gatewayRow('tools'), gatewayRow('proxy')];

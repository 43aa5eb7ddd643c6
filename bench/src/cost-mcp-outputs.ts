/**
 * The tool results `bench:cost` replays on real-sized content: the outputs of three real MCP
 * servers from npm (`@modelcontextprotocol/server-filesystem`, `-memory`, `-everything`, pinned
 * in bench/package.json), run offline over stdio on a fixed workload: an agent exploring those
 * three packages. It reads every file, lists every folder and each package's tree (filesystem),
 * files what the packages' documents say in a knowledge graph and looks it up (memory), and asks
 * for structured weather data and resource links (everything). The files are pinned by the
 * lockfile, so the outputs are the same on every machine (a folder listing's order may differ
 * with the file system; its tokens do not).
 */
import { realpathSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** One tool result of the workload. */
export interface McpOutput {
  server: 'filesystem' | 'memory' | 'everything';
  tool: string;
  /** What was read, for `read_text_file`: `<package>/<path in it>`. */
  file?: string;
  /** The result's content as an MCP client puts it into a conversation. */
  text: string;
}

const BENCH_ROOT = path.resolve(import.meta.dirname, '..');
const PACKAGES = ['server-everything', 'server-filesystem', 'server-memory'] as const;

function packageRoot(name: (typeof PACKAGES)[number]): string {
  return realpathSync(path.join(BENCH_ROOT, 'node_modules/@modelcontextprotocol', name));
}

function entryPoint(name: (typeof PACKAGES)[number]): string {
  return path.join(packageRoot(name), 'dist/index.js');
}

/** Knowledge-graph look-ups of the memory workload. */
const MEMORY_QUERIES = ['resource', 'tool', 'transport', 'roots', 'server', 'prompt'];
/** Documents opened together per `open_nodes` call. */
const OPEN_NODES_GROUP = 3;
/** Paragraphs of a document kept as its entity's observations. */
const OBSERVATIONS_PER_DOCUMENT = 6;

/** The text an MCP client puts into the conversation: text parts as they are, others as JSON. */
export function resultText(result: { content?: unknown }): string {
  const parts = Array.isArray(result.content) ? result.content : [];
  return parts
    .map((part: { type?: string; text?: string }) =>
      part.type === 'text' ? (part.text ?? '') : JSON.stringify(part),
    )
    .join('\n');
}

async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'bench-cost-content', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      stderr: 'ignore',
      env: { PATH: process.env.PATH ?? '', ...env },
    }),
  );
  return client;
}

async function call(
  client: Client,
  server: McpOutput['server'],
  name: string,
  args: Record<string, unknown>,
): Promise<McpOutput> {
  const result = await client.callTool({ name, arguments: args });
  const text = resultText(result);
  if (result.isError === true) throw new Error(`${server} ${name} failed: ${text.slice(0, 200)}`);
  return { server, tool: name, text };
}

/** Files and folders under a package, sorted, without its own node_modules. */
async function walk(root: string): Promise<{ files: string[]; folders: string[] }> {
  const files: string[] = [];
  const folders: string[] = [root];
  for (let index = 0; index < folders.length; index++) {
    const folder = folders[index]!;
    for (const entry of (await readdir(folder)).sort()) {
      if (entry === 'node_modules') continue;
      const full = path.join(folder, entry);
      if ((await stat(full)).isDirectory()) folders.push(full);
      else files.push(full);
    }
  }
  return { files, folders };
}

async function filesystemOutputs(): Promise<McpOutput[]> {
  const client = await connect([entryPoint('server-filesystem'), ...PACKAGES.map(packageRoot)]);
  const outputs: McpOutput[] = [];
  try {
    for (const name of PACKAGES) {
      const root = packageRoot(name);
      const { files, folders } = await walk(root);
      for (const file of files) {
        const output = await call(client, 'filesystem', 'read_text_file', { path: file });
        outputs.push({ ...output, file: `${name}/${path.relative(root, file)}` });
      }
      for (const folder of folders) {
        outputs.push(await call(client, 'filesystem', 'list_directory', { path: folder }));
      }
      outputs.push(
        await call(client, 'filesystem', 'directory_tree', {
          path: root,
          excludePatterns: ['node_modules'],
        }),
      );
    }
  } finally {
    await client.close();
  }
  return outputs;
}

/** The markdown documents the filesystem workload read: the memory workload files them. */
export function markdownDocuments(outputs: readonly McpOutput[]): { name: string; text: string }[] {
  return outputs.flatMap((output) =>
    output.file?.endsWith('.md') ? [{ name: output.file, text: output.text }] : [],
  );
}

/** Paragraphs of prose in a markdown text: no headings, code, tables or lists. */
export function proseParagraphs(markdown: string): string[] {
  const withoutCode = markdown.replace(/```[\s\S]*?```/g, '');
  return withoutCode
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter((paragraph) => /^[A-Za-z]/.test(paragraph) && /[.!?:]$/.test(paragraph));
}

async function memoryOutputs(documents: readonly { name: string; text: string }[]) {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-cost-memory-'));
  const client = await connect([entryPoint('server-memory')], {
    MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl'),
  });
  const outputs: McpOutput[] = [];
  try {
    const entities = documents.map((document) => ({
      name: document.name,
      entityType: 'document',
      observations: proseParagraphs(document.text).slice(0, OBSERVATIONS_PER_DOCUMENT),
    }));
    const packages = PACKAGES.map((name) => ({
      name,
      entityType: 'package',
      observations: [`The npm package @modelcontextprotocol/${name}.`],
    }));
    outputs.push(
      await call(client, 'memory', 'create_entities', { entities: [...packages, ...entities] }),
    );
    const relations = documents.map((document) => ({
      from: document.name,
      to: document.name.split('/')[0]!,
      relationType: 'documents',
    }));
    outputs.push(await call(client, 'memory', 'create_relations', { relations }));
    for (const query of MEMORY_QUERIES) {
      outputs.push(await call(client, 'memory', 'search_nodes', { query }));
    }
    for (let index = 0; index < documents.length; index += OPEN_NODES_GROUP) {
      const names = documents.slice(index, index + OPEN_NODES_GROUP).map(({ name }) => name);
      outputs.push(await call(client, 'memory', 'open_nodes', { names }));
    }
    outputs.push(await call(client, 'memory', 'read_graph', {}));
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
  return outputs;
}

async function everythingOutputs(): Promise<McpOutput[]> {
  const client = await connect([entryPoint('server-everything'), 'stdio']);
  const outputs: McpOutput[] = [];
  try {
    for (const location of ['New York', 'Chicago', 'Los Angeles']) {
      outputs.push(await call(client, 'everything', 'get-structured-content', { location }));
    }
    for (const count of [3, 10]) {
      outputs.push(await call(client, 'everything', 'get-resource-links', { count }));
    }
  } finally {
    await client.close();
  }
  return outputs;
}

/**
 * Runs the workload on the three servers and returns every tool result, in workload order.
 * Takes a few seconds (three node processes).
 */
export async function collectMcpOutputs(): Promise<McpOutput[]> {
  const filesystem = await filesystemOutputs();
  const memory = await memoryOutputs(markdownDocuments(filesystem));
  const everything = await everythingOutputs();
  return [...filesystem, ...memory, ...everything];
}

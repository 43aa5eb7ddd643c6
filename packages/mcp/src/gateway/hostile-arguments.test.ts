import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { hostileArgumentCases } from 'tool-search-testing/hostile-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callTool,
  type HttpGateway,
  startHttpGateway,
  temporaryDir,
  textOf,
} from '../test-utils/harness';
import { TINY_SERVER } from '../test-utils/servers';

/**
 * An upstream whose tools have hostile input schemas, behind the real HTTP gateway: while one
 * session's `call_tool` with hostile arguments is being checked, another session's `search_tools`
 * still answers. Before the check was bounded, one 38-byte request froze every session for seconds.
 */

/**
 * The slowest answer another session may get while a hostile call is checked. Far above what the
 * bounded check costs (tens of milliseconds, on a busy machine too), far below what an unbounded
 * one did (7 to 17 s for these forms).
 */
const BYSTANDER_BOUND_MS = 2_000;
/** How often the bystander asks while the hostile call is in flight. */
const BYSTANDER_INTERVAL_MS = 20;

/** The forms sent through the gateway: the issue's, by name in the shared table. */
const FORMS = [
  'a backtracking pattern, ^(a+)+$',
  'format "uri", a hostile 28-character string',
  'uniqueItems over 40,000 distinct items',
  'a 5,000-value enum and 10 bad items',
  'oneOf of two recursive references, arrays nested 40 deep',
  'a pattern with a lookahead, the rest valid',
];

describe('the HTTP gateway under hostile schemas and arguments', () => {
  const cases = hostileArgumentCases().filter((hostile) => FORMS.includes(hostile.name));
  const toolName = (index: number) => `hostile_${index}`;
  let folder: Awaited<ReturnType<typeof temporaryDir>>;
  let gateway: HttpGateway;
  let attacker: Client;
  let bystander: Client;

  beforeAll(async () => {
    folder = await temporaryDir();
    const tools = [
      {
        name: 'get_weather',
        description: 'Current weather for a city',
        inputSchema: { type: 'object' },
      },
      ...cases.map((hostile, index) => ({
        name: toolName(index),
        description: `A tool with a hostile schema: ${hostile.name}`,
        inputSchema: hostile.schema,
      })),
    ];
    const toolsFile = join(folder.dir, 'tools.json');
    await writeFile(toolsFile, JSON.stringify(tools));
    gateway = await startHttpGateway({
      servers: {
        up: { command: process.execPath, args: [TINY_SERVER, '--tools-json', toolsFile] },
      },
      toolSearch: { expose: 'proxy' },
    });
    attacker = await gateway.connect();
    bystander = await gateway.connect();
    const loaded = await callTool(attacker, 'load_tool', {
      toolNames: cases.map((_, index) => `up__${toolName(index)}`),
    });
    expect(loaded.isError).toBeFalsy();
  }, 60_000);

  afterAll(async () => {
    await gateway?.close();
    await folder?.remove();
  });

  /** Runs `work` while the bystander searches every few milliseconds; the slowest search's time. */
  async function slowestSearchDuring(work: Promise<unknown>): Promise<number> {
    let done = false;
    void work.finally(() => {
      done = true;
    });
    let slowest = 0;
    do {
      const started = performance.now();
      const answer = await callTool(bystander, 'search_tools', { query: 'weather' });
      slowest = Math.max(slowest, performance.now() - started);
      expect(textOf(answer)).toContain('up__get_weather');
      await new Promise((resolve) => setTimeout(resolve, BYSTANDER_INTERVAL_MS));
    } while (!done);
    await work;
    return slowest;
  }

  for (const [index, hostile] of cases.entries()) {
    it(`answers ${hostile.expected === 'refused' ? 'with a refusal' : 'by running the call'} and keeps other sessions answering: ${hostile.name}`, async () => {
      const call = callTool(attacker, 'call_tool', {
        name: `up__${toolName(index)}`,
        arguments: hostile.args,
      });
      const slowest = await slowestSearchDuring(call);
      expect(slowest).toBeLessThan(BYSTANDER_BOUND_MS);
      const text = textOf(await call);
      if (hostile.expected === 'refused') {
        expect(text).toContain('was not run');
        expect(text).not.toContain('ran');
        // The refusal is a few problems, each cut short (the old one for the enum was 739,655 characters).
        expect(text.length).toBeLessThan(4_000);
      } else {
        expect(text).toContain(`${toolName(index)} ran`);
      }
    }, 60_000);
  }
});

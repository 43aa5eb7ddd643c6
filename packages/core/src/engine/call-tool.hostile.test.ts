import { hostileArgumentCases } from 'tool-search-testing/hostile-schemas';
import { describe, expect, it } from 'vitest';
import { UncheckedArgumentsError } from '../meta-tools/argument-check';
import type { CallToolRefusal } from '../meta-tools/meta-tool-schemas';
import { createToolSearchEngine } from './tool-search-engine';
import type { ToolRun } from './types';

/** A refusal the model reads: the few problems, each cut, fit in this many characters. */
const MAX_REFUSAL_CHARACTERS = 4_000;

interface HostileTool {
  schema: Record<string, unknown>;
}

describe("call_tool under hostile schemas and arguments (expose: 'proxy')", () => {
  const cases = hostileArgumentCases();

  for (const hostile of cases) {
    it(`answers ${hostile.expected === 'refused' ? 'with a short refusal' : hostile.expected}: ${hostile.name}`, async () => {
      const runs: ToolRun<HostileTool, unknown>[] = [];
      const errors: { operation: string; error: unknown }[] = [];
      const engine = createToolSearchEngine<HostileTool>({
        tools: { hostile_tool: { schema: hostile.schema } },
        describe: (tool, key) => ({
          id: key,
          description: 'A tool with a hostile schema',
          inputSchema: tool.schema,
        }),
        expose: 'proxy',
        runTool: (run) => {
          runs.push(run);
          return 'ran';
        },
        onError: (event) => errors.push(event),
      });
      const session = engine.createSession({ threadId: 'attacker' });
      await session.metaTools
        .find((tool) => tool.name === 'load_tool')!
        .execute({ toolName: 'hostile_tool' });
      const callTool = session.metaTools.find((tool) => tool.name === 'call_tool')!;
      const output = await callTool.execute({ name: 'hostile_tool', arguments: hostile.args });

      if (hostile.expected === 'refused') {
        const refusal = output as CallToolRefusal;
        expect(refusal.success).toBe(false);
        expect(runs).toHaveLength(0);
        expect(JSON.stringify(refusal).length).toBeLessThan(MAX_REFUSAL_CHARACTERS);
        if (hostile.mentions) expect(refusal.message).toContain(hostile.mentions);
        expect(errors).toEqual([]);
      } else {
        expect(output).toBe('ran');
        expect(runs).toHaveLength(1);
        if (hostile.expected === 'unchecked') {
          expect(errors).toEqual([
            expect.objectContaining({
              operation: 'call_tool.schema',
              error: expect.any(UncheckedArgumentsError),
            }),
          ]);
          expect((errors[0]!.error as Error).message.length).toBeLessThan(MAX_REFUSAL_CHARACTERS);
        } else expect(errors).toEqual([]);
      }
    }, 30_000);
  }
});

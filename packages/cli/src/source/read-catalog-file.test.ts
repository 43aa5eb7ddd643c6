import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError } from '../cli/cli-error';
import { temporaryDir } from '../test-utils/run-cli';
import { parseCatalogJson, readCatalogFile } from './read-catalog-file';

let temp: Awaited<ReturnType<typeof temporaryDir>>;
beforeEach(async () => {
  temp = await temporaryDir();
});
afterEach(() => temp.dispose());

/** The message of the CliError `run` throws. */
function problem(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return (error as Error).message;
  }
  throw new Error('expected a CliError');
}

describe('readCatalogFile', () => {
  it('reads the data format: tools, queries and the name', async () => {
    const file = await temp.write('data.json', {
      name: 'my-tools',
      tools: [{ id: 'a', description: 'Adds', inputSchema: { type: 'object' }, keywords: ['sum'] }],
      queries: [{ query: 'add', relevant: ['a'] }],
    });
    expect(await readCatalogFile(file)).toEqual({
      file,
      name: 'my-tools',
      tools: [{ id: 'a', description: 'Adds', inputSchema: { type: 'object' }, keywords: ['sum'] }],
      queries: [{ query: 'add', relevant: ['a'] }],
    });
  });

  it("reads an array of MCP, Anthropic and OpenAI tools, named by the file's base name", async () => {
    const file = await temp.write('mixed.json', [
      { name: 'mcp_tool', description: 'From tools/list', inputSchema: { type: 'object' } },
      { name: 'titled', title: 'Only a title' },
      { name: 'anthropic_tool', description: 'Messages API', input_schema: { type: 'object' } },
      {
        type: 'function',
        function: { name: 'openai_tool', description: 'Chat API', parameters: { type: 'object' } },
      },
    ]);
    const read = await readCatalogFile(file);
    expect(read.name).toBe('mixed');
    expect(read.tools).toEqual([
      { id: 'mcp_tool', description: 'From tools/list', inputSchema: { type: 'object' } },
      { id: 'titled', description: 'Only a title' },
      { id: 'anthropic_tool', description: 'Messages API', inputSchema: { type: 'object' } },
      { id: 'openai_tool', description: 'Chat API', inputSchema: { type: 'object' } },
    ]);
  });

  it('names a missing file, a folder and a file that is not JSON', async () => {
    await expect(readCatalogFile(`${temp.dir}/missing.json`)).rejects.toThrow(
      `${temp.dir}/missing.json: no such file`,
    );
    await expect(readCatalogFile(temp.dir)).rejects.toThrow(`${temp.dir}: is a folder, not a file`);
    const file = await temp.write('broken.json', '{ "tools": [');
    await expect(readCatalogFile(file)).rejects.toThrow(`${file}: is not valid JSON`);
  });
});

describe('parseCatalogJson', () => {
  it('names the JSON path of a wrong field', () => {
    expect(problem(() => parseCatalogJson({ tools: [{ id: 'a' }, { id: 7 }] }, 'f.json'))).toBe(
      'f.json: $.tools[1].id: must be a non-empty string, got number 7',
    );
    expect(problem(() => parseCatalogJson({ tools: [{ description: 'x' }] }, 'f.json'))).toBe(
      'f.json: $.tools[0]: needs an "id" (or "name") string',
    );
    expect(
      problem(() => parseCatalogJson({ tools: [{ id: 'a', inputSchema: 'x' }] }, 'f.json')),
    ).toBe('f.json: $.tools[0].inputSchema: must be an object, got the string "x"');
    expect(
      problem(() => parseCatalogJson({ tools: [{ id: 'a', keywords: ['k', 2] }] }, 'f.json')),
    ).toBe('f.json: $.tools[0].keywords[1]: must be a string, got number 2');
    expect(problem(() => parseCatalogJson({ tools: {} }, 'f.json'))).toBe(
      'f.json: $.tools: must be an array, got an object',
    );
    expect(problem(() => parseCatalogJson(42, 'f.json'))).toMatch(
      /^f\.json: \$: must be an object/,
    );
    expect(problem(() => parseCatalogJson({ tool: [] }, 'f.json'))).toMatch(
      /needs a "tools" array/,
    );
  });

  it('refuses duplicate ids, naming the first', () => {
    expect(
      problem(() => parseCatalogJson([{ id: 'a' }, { id: 'b' }, { name: 'a' }], 'f.json')),
    ).toBe('f.json: $[2].name: "a" is also the id of $[0]');
  });

  it('checks queries: a string query and at least one relevant id', () => {
    expect(
      problem(() =>
        parseCatalogJson({ tools: [], queries: [{ query: 'x', relevant: [] }] }, 'q.json'),
      ),
    ).toBe('q.json: $.queries[0].relevant: must name at least one tool id');
    expect(
      problem(() => parseCatalogJson({ queries: [{ query: 1, relevant: ['a'] }] }, 'q.json')),
    ).toBe('q.json: $.queries[0].query: must be a string, got number 1');
  });

  it('keeps odd ids such as __proto__ as plain data', () => {
    const read = parseCatalogJson(JSON.parse('[{"id":"__proto__","description":"odd"}]'), 'f.json');
    expect(read.tools).toEqual([{ id: '__proto__', description: 'odd' }]);
  });
});

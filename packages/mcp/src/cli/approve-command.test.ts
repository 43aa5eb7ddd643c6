import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFilePinStore } from '../pins/file-pin-store';
import { definitionHash } from '../pins/pinned-definition';
import { temporaryDir } from '../test-utils/harness';
import { main } from './main';

function capture() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

async function approve(args: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = capture();
  const stderr = capture();
  const code = await main(['approve', ...args], {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

async function setUp(config: unknown) {
  const temp = await temporaryDir();
  const file = join(temp.dir, 'gateway.json');
  await writeFile(file, typeof config === 'string' ? config : JSON.stringify(config));
  return { dir: temp.dir, file, remove: temp.remove };
}

describe('tool-search-mcp approve', () => {
  it('reads only where the pins are: servers whose variables are unset do not stop it', async () => {
    const setup = await setUp({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${NAME} syntax
      mcpServers: { gh: { url: 'https://h/mcp', headers: { A: '${UNSET_TOKEN}' } } },
    });
    try {
      const result = await approve(['--config', setup.file, '--cache', setup.dir]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toBe(
        `No tool is quarantined (pins: ${join(setup.dir, 'pins.json')}).\n`,
      );
      const json = await approve(['--config', setup.file, '--cache', setup.dir, '--json']);
      expect(JSON.parse(json.stdout)).toEqual({
        location: join(setup.dir, 'pins.json'),
        quarantined: [],
      });
    } finally {
      await setup.remove();
    }
  });

  it('takes the pin file the config names, and says so when pinning is off', async () => {
    const setup = await setUp({ mcpServers: {}, definitionPins: { file: 'elsewhere.json' } });
    try {
      const store = createFilePinStore(join(setup.dir, 'elsewhere.json'));
      const definition = { name: 'echo', description: 'New text' };
      await store.update([
        {
          type: 'hold',
          server: 's',
          tool: 'echo',
          entry: {
            hash: definitionHash(definition),
            definition,
            at: 'now',
            exposedName: 's__echo',
            reason: 'new',
          },
        },
      ]);
      const listed = await approve(['--config', setup.file]);
      expect(listed.stdout).toContain('s__echo  (server "s", tool "echo")');
      expect(listed.stdout).toContain(
        'a new tool of a known server, held by "newTools": "quarantine"',
      );
      expect(listed.stdout).toContain('+ New text');
      await writeFile(setup.file, JSON.stringify({ mcpServers: {}, definitionPins: false }));
      expect((await approve(['--config', setup.file])).stdout).toContain(
        'Pinning is off in this config',
      );
      expect(await approve(['--config', setup.file, 's__echo'])).toMatchObject({ code: 1 });
    } finally {
      await setup.remove();
    }
  });

  it.each([
    [[], 2, '--config FILE is required'],
    [['--config', 'x.json', '--all', 'a__b'], 2, 'give names or --all, not both'],
    [['--config', 'x.json', '--bogus'], 2, "Unknown option '--bogus'"],
    [
      ['--config', '/nonexistent/gateway.json'],
      1,
      'invalid config: /nonexistent/gateway.json: $: cannot be read (ENOENT)',
    ],
  ])('refuses %j with exit code %i and a clear message', async (args, code, message) => {
    const result = await approve(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('answers a damaged pin file with its reason (exit 1), and a config that is not JSON', async () => {
    const setup = await setUp({ mcpServers: {} });
    try {
      await writeFile(join(setup.dir, 'pins.json'), '{"format": 1, "tools": [');
      const damaged = await approve(['--config', setup.file, '--cache', setup.dir, '--all']);
      expect(damaged.code).toBe(1);
      expect(damaged.stderr).toContain('pins.json is damaged: not JSON');
      await writeFile(setup.file, '{ not json');
      const bad = await approve(['--config', setup.file]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('is not valid JSON');
    } finally {
      await setup.remove();
    }
  });

  it('names at most ten unknown names, each cut to 120 characters, and approves none', async () => {
    const setup = await setUp({ mcpServers: {} });
    try {
      const names = Array.from({ length: 10_000 }, (_, index) => `${'n'.repeat(500)}${index}`);
      const result = await approve(['--config', setup.file, '--cache', setup.dir, ...names]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'and 9990 more (quarantined now: none); nothing was approved',
      );
      expect(result.stderr.length).toBeLessThan(2_000);
    } finally {
      await setup.remove();
    }
  });

  it('prints its help with --help', async () => {
    const result = await approve(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Usage: tool-search-mcp approve --config FILE [--cache DIR] [NAME ... | --all] [--json]',
    );
  });
});

/**
 * What checking `call_tool`'s arguments costs, before and after the bounded validator (issue 32):
 * - each hostile form (`tool-search-testing/hostile-schemas`) through `@cfworker/json-schema`
 *   (what the core used before; run in a worker thread, stopped after `--cap` ms) and through the
 *   engine's `session.callTool` today: time, answer, and the size of the refusal;
 * - ordinary schemas and arguments, microseconds per check: cfworker's `validate` against
 *   `session.callTool` on a tool with the schema less `session.callTool` on one without.
 *
 * Usage: `pnpm --filter bench bench:arguments [--cap 20000] [--calls 20000]`.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Validator } from '@cfworker/json-schema';
import {
  type CallToolOutcome,
  createToolSearchEngine,
  type ToolDescriptor,
} from 'tool-search-core';
import { hostileArgumentCases } from 'tool-search-testing/hostile-schemas';
import { count, markdownTable, ms } from './format';

interface Options {
  cap: number;
  calls: number;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { cap: 20_000, calls: 20_000 };
  for (let index = 0; index < argv.length; index += 2) {
    const flag = argv[index];
    const value = Number(argv[index + 1]);
    if (flag === '--cap') options.cap = value;
    else if (flag === '--calls') options.calls = value;
    else throw new Error(`unknown option ${flag}`);
  }
  return options;
}

/** A proxy engine over one tool (or one per schema), whose `runTool` only counts. */
function engineFor(tools: Record<string, Record<string, unknown> | undefined>) {
  const engine = createToolSearchEngine<{ schema?: Record<string, unknown> }>({
    tools: Object.fromEntries(
      Object.entries(tools).map(([name, schema]) => [name, schema ? { schema } : {}]),
    ),
    describe: (tool, key): ToolDescriptor => ({
      id: key,
      description: key,
      ...(tool.schema && { inputSchema: tool.schema }),
    }),
    expose: 'proxy',
    alwaysLoaded: Object.keys(tools),
    runTool: () => 'ran',
    onError: () => {},
  });
  return engine.createSession({ threadId: 'bench' });
}

function describeOutcome(outcome: CallToolOutcome): string {
  if (outcome.status === 'ran') return 'ran';
  return `refused (${count(JSON.stringify(outcome.output).length)} chars)`;
}

/** The old check in a worker: cfworker's validator as the core used it (every error, no short-circuit). */
function oldCheck(caseIndex: number, cap: number): Promise<string> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: caseIndex,
      execArgv: process.execArgv,
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(`> ${count(cap)} (stopped)`);
    }, cap);
    worker.once('message', (message: string) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      resolve(`error: ${error.message.slice(0, 60)}`);
    });
  });
}

function runOldCheckInWorker(caseIndex: number): void {
  const hostile = hostileArgumentCases()[caseIndex]!;
  const started = performance.now();
  let answer: string;
  try {
    const result = new Validator(hostile.schema as never, '2020-12', false).validate(hostile.args);
    const text = result.errors.map((error) => error.error).join('; ');
    answer = result.valid ? 'valid' : `invalid (${count(text.length)} chars of errors)`;
  } catch (error) {
    answer = error instanceof RangeError ? 'stack overflow' : 'threw';
  }
  parentPort!.postMessage(`${ms(performance.now() - started)} ms, ${answer}`);
}

async function hostileTable(options: Options): Promise<string> {
  const rows: string[][] = [];
  const cases = hostileArgumentCases();
  for (const [index, hostile] of cases.entries()) {
    const before = await oldCheck(index, options.cap);
    const session = engineFor({ tool: hostile.schema });
    // Twice: the first call also reads the schema and compiles its patterns.
    let after = 0;
    let outcome: CallToolOutcome | undefined;
    for (let round = 0; round < 2; round++) {
      const started = performance.now();
      outcome = await session.callTool({ name: 'tool', arguments: hostile.args });
      after = performance.now() - started;
    }
    rows.push([hostile.name, before, `${ms(after)} ms, ${describeOutcome(outcome!)}`]);
  }
  return markdownTable(
    ['hostile form', 'before: @cfworker/json-schema', 'after: session.callTool'],
    rows,
  );
}

const ORDINARY: { name: string; schema: Record<string, unknown>; args: Record<string, unknown> }[] =
  [
    {
      name: 'weather (3 properties, enum, bounds)',
      schema: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name' },
          days: { type: 'integer', minimum: 1, maximum: 10 },
          unit: { enum: ['celsius', 'fahrenheit'] },
        },
        required: ['city'],
        additionalProperties: false,
      },
      args: { city: 'Oslo', days: 3, unit: 'celsius' },
    },
    {
      name: 'email (nested array of objects, format)',
      schema: {
        type: 'object',
        properties: {
          to: { type: 'array', items: { type: 'string', format: 'email' }, minItems: 1 },
          subject: { type: 'string', maxLength: 200 },
          body: { type: 'string' },
          attachments: {
            type: 'array',
            items: {
              type: 'object',
              properties: { name: { type: 'string' }, size: { type: 'number' } },
              required: ['name'],
            },
          },
        },
        required: ['to', 'subject'],
      },
      args: {
        to: ['ada@example.com', 'alan@example.org'],
        subject: 'Quarterly numbers',
        body: 'See the attached files. '.repeat(20),
        attachments: [
          { name: 'q3.pdf', size: 12_000 },
          { name: 'q3.xlsx', size: 8_000 },
        ],
      },
    },
    {
      name: 'zod-style (anyOf null, pattern, date-time, $defs)',
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { label: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,49}$' } },
        properties: {
          repo: { type: 'string', pattern: '^[\\w.-]+/[\\w.-]+$' },
          title: { type: 'string', minLength: 1 },
          labels: { type: 'array', items: { $ref: '#/$defs/label' }, uniqueItems: true },
          due: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
          assignee: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
        required: ['repo', 'title'],
        additionalProperties: false,
      },
      args: {
        repo: 'acme/widgets',
        title: 'Crash on start',
        labels: ['bug', 'p1', 'needs-triage'],
        due: '2026-12-01T09:00:00Z',
        assignee: null,
      },
    },
  ];

async function ordinaryTable(options: Options): Promise<string> {
  const rows: string[][] = [];
  for (const ordinary of ORDINARY) {
    const validator = new Validator(ordinary.schema as never, '2020-12', false);
    const session = engineFor({ with: ordinary.schema, without: undefined });
    const timeOld = () => {
      const started = performance.now();
      for (let call = 0; call < options.calls; call++) validator.validate(ordinary.args);
      return ((performance.now() - started) * 1000) / options.calls;
    };
    const timeCalls = async (name: string) => {
      const started = performance.now();
      for (let call = 0; call < options.calls; call++)
        await session.callTool({ name, arguments: ordinary.args });
      return ((performance.now() - started) * 1000) / options.calls;
    };
    // Warm up, then take turns so a busy machine slows both alike.
    timeOld();
    await timeCalls('with');
    await timeCalls('without');
    const old: number[] = [];
    const fresh: number[] = [];
    for (let round = 0; round < 3; round++) {
      old.push(timeOld());
      fresh.push((await timeCalls('with')) - (await timeCalls('without')));
    }
    const best = (values: number[]) => Math.min(...values).toFixed(2);
    rows.push([ordinary.name, best(old), best(fresh)]);
  }
  return markdownTable(['ordinary schema', 'before: µs per check', 'after: µs per check'], rows);
}

if (isMainThread) {
  const options = parseOptions(process.argv.slice(2));
  console.log(
    `argument checks (node ${process.version}), hostile forms capped at ${count(options.cap)} ms before:\n`,
  );
  console.log(await hostileTable(options));
  console.log(`\nordinary calls, ${count(options.calls)} checks each, best of 3:\n`);
  console.log(await ordinaryTable(options));
} else {
  runOldCheckInWorker(workerData as number);
}

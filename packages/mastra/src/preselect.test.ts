import { Classifier, type MastraEvaluationModel } from '@mastra/core/classifier';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCatalog, type ExecutionLog } from './testing/catalog';
import { lastResult, runAgent } from './testing/run-agent';
import { ToolSearchProcessor } from './tool-search-processor';

const questions = {
  domain: {
    type: 'choice',
    instructions: 'Which kind of task is this?',
    criteria: {
      weather: 'Weather and forecasts',
      mail: 'Writing or sending email',
      chat: 'Small talk; no tools needed',
    },
  },
} as const;

/** The evaluation model contract Mastra's `Classifier` drives (the AI SDK's `EvaluationModelV4`). */
type EvaluationModelV4 = ConstructorParameters<typeof MastraEvaluationModel>[0];

const toolsByChoice = {
  weather: ['get_weather'],
  mail: ['send_email'],
  chat: [],
};

/**
 * An evaluation model (the AI SDK's `EvaluationModelV4` contract that Mastra's `Classifier`
 * drives) answering from a script, recording what it was asked.
 */
function evaluationModel(
  answer: (state: unknown) => { choice: string; probabilities?: Record<string, number> } | Error,
) {
  const asked: unknown[] = [];
  const model: EvaluationModelV4 = {
    specificationVersion: 'v4',
    provider: 'scripted',
    modelId: 'router',
    supportedQuestionTypes: ['choice'],
    doEvaluate: async (options) => {
      asked.push(options.state);
      const next = answer(options.state);
      if (next instanceof Error) throw next;
      return {
        answers: { domain: { type: 'choice', ...next } },
        usage: { inputTokens: 1, outputTokens: 1 },
        warnings: [],
      };
    },
  } as EvaluationModelV4;
  return { model, asked };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ToolSearchProcessor({ preselect }) with a classifier', () => {
  it('offers the chosen tools on the first model call, classifying each user message once', async () => {
    const log: ExecutionLog = { runs: [] };
    const { model, asked } = evaluationModel((state) =>
      String(state).includes('rain')
        ? { choice: 'weather', probabilities: { weather: 0.9, mail: 0.05, chat: 0.05 } }
        : { choice: 'mail', probabilities: { weather: 0.1, mail: 0.8, chat: 0.1 } },
    );
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      preselect: {
        classifier: new Classifier({ id: 'router', model, questions }),
        question: 'domain',
        tools: toolsByChoice,
      },
    });
    const run = await runAgent({
      processor,
      input: 'will it rain in Oslo?',
      context: { mastra__threadId: 'preselect' },
      script: (turn) =>
        turn.call === 0 ? { toolName: 'get_weather', input: { city: 'Oslo' } } : { text: 'yes' },
    });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool', 'get_weather']);
    expect(lastResult(run.turns[1]!)?.output).toMatchObject({ city: 'Oslo' });
    expect(asked).toEqual(['will it rain in Oslo?']);
    const next = await runAgent({
      processor,
      input: 'now email Ana the forecast',
      context: { mastra__threadId: 'preselect' },
      script: () => ({ text: 'ok' }),
    });
    // Loads add up over the thread: the weather tool stays, the email tool joins it.
    expect(next.turns[0]!.toolNames).toEqual([
      'search_tools',
      'load_tool',
      'get_weather',
      'send_email',
    ]);
    expect(asked).toHaveLength(2);
  });

  it('loads nothing below minProbability, and nothing the load filter denies', async () => {
    const { model } = evaluationModel(() => ({
      choice: 'mail',
      probabilities: { weather: 0.3, mail: 0.5, chat: 0.2 },
    }));
    const unsure = new ToolSearchProcessor({
      tools: createCatalog({ runs: [] }),
      preselect: {
        classifier: new Classifier({ id: 'router', model, questions }),
        question: 'domain',
        tools: toolsByChoice,
      },
    });
    const run = await runAgent({
      processor: unsure,
      input: 'mail?',
      script: () => ({ text: 'ok' }),
    });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool']);

    const denied = new ToolSearchProcessor({
      tools: createCatalog({ runs: [] }),
      filter: ({ toolName, phase }) => !(phase === 'load' && toolName === 'send_email'),
      preselect: {
        classifier: new Classifier({ id: 'router', model, questions }),
        question: 'domain',
        tools: toolsByChoice,
        minProbability: 0.4,
      },
    });
    const deniedRun = await runAgent({
      processor: denied,
      input: 'mail?',
      script: () => ({ text: 'ok' }),
    });
    expect(deniedRun.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool']);
  });

  it('fails open: a failing classifier loads nothing and reports through onError', async () => {
    const { model } = evaluationModel(() => new Error('router is down'));
    const errors: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const processor = new ToolSearchProcessor({
      tools: createCatalog({ runs: [] }),
      onError: (event) => errors.push(event),
      preselect: {
        classifier: new Classifier({ id: 'router', model, questions }),
        question: 'domain',
        tools: toolsByChoice,
      },
    });
    const run = await runAgent({ processor, input: 'rain?', script: () => ({ text: 'ok' }) });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool']);
    expect(errors).toEqual([
      { threadId: undefined, operation: 'preselect', error: expect.any(Error) },
    ]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('finds a classifier registered with Mastra by its id', async () => {
    const { model } = evaluationModel(() => ({ choice: 'weather' }));
    const processor = new ToolSearchProcessor({
      tools: createCatalog({ runs: [] }),
      preselect: { classifier: 'router', question: 'domain', tools: toolsByChoice },
    });
    // The agent's Mastra registers the processor with it, as an app's Mastra does.
    const run = await runAgent({
      processor,
      input: 'rain?',
      script: () => ({ text: 'ok' }),
      mastra: { classifiers: { router: new Classifier({ id: 'router', model, questions }) } },
    });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool', 'get_weather']);
  });

  it('checks the classifier against the mapping at construction', () => {
    const { model } = evaluationModel(() => ({ choice: 'chat' }));
    const classifier = new Classifier({ id: 'router', model, questions });
    const create = (tools: Record<string, string[]>) => () =>
      new ToolSearchProcessor({
        tools: {},
        preselect: { classifier, question: 'domain', tools },
      });
    expect(create({ weather: [], mail: [] })).toThrow('Missing: chat');
    expect(create({ ...toolsByChoice, sport: [] })).toThrow('cannot return: sport');
    expect(
      () =>
        new ToolSearchProcessor({
          tools: {},
          preselect: { classifier, question: 'mood', tools: toolsByChoice },
        }),
    ).toThrow("question 'mood' is not configured");
  });
});

describe('ToolSearchProcessor({ preselect }) by the index', () => {
  it('offers the tools the user’s message ranks above minScore, without a model call', async () => {
    const processor = new ToolSearchProcessor({
      tools: createCatalog({ runs: [] }),
      preselect: { minScore: 3 },
    });
    const run = await runAgent({
      processor,
      input: 'Open an issue in the GitHub repository about the login bug',
      script: () => ({ text: 'ok' }),
    });
    expect(run.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool', 'github_create_issue']);
    const chat = await runAgent({ processor, input: 'hello!', script: () => ({ text: 'hi' }) });
    expect(chat.turns[0]!.toolNames).toEqual(['search_tools', 'load_tool']);
  });

  it('refuses a preselect option it cannot use, at construction', () => {
    const create = (preselect: unknown) => () =>
      new ToolSearchProcessor({ tools: {}, preselect: preselect as never });
    expect(create({ minScore: Number.NaN })).toThrow('preselect.minScore must be a number');
    expect(create({ minScore: 2, maxTools: 0 })).toThrow('preselect.maxTools must be an integer');
    expect(create({ maxTools: 2 })).toThrow('takes a `classifier`');
    expect(create(null)).toThrow('`preselect` must be an object');
  });

  it('keeps a preselected tool for the rest of its request without a thread', async () => {
    const log: ExecutionLog = { runs: [] };
    const processor = new ToolSearchProcessor({
      tools: createCatalog(log),
      preselect: { minScore: 3 },
    });
    const run = await runAgent({
      processor,
      input: 'Open an issue in the GitHub repository about the login bug',
      script: (turn) =>
        turn.call === 0
          ? { toolName: 'search_tools', input: { query: 'slack' } }
          : turn.call === 1
            ? { toolName: 'github_create_issue', input: { repo: 'app', title: 'login bug' } }
            : { text: 'done' },
    });
    expect(run.turns[1]!.toolNames).toContain('github_create_issue');
    expect(log.runs).toEqual([
      { toolName: 'github_create_issue', input: { repo: 'app', title: 'login bug' } },
    ]);
  });
});

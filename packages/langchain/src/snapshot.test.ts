import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { SnapshotDriftError } from 'tool-search-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CallLog, createCatalog, scriptedModel } from './testing/fixtures';
import { toolSearchMiddleware } from './tool-search-middleware';
import { createToolSearchSelector } from './tool-search-selector';

describe('toolSearchMiddleware({ toolSearch: true, snapshot })', () => {
  it('starts from an index snapshot and runs search → load → call', async () => {
    const log: CallLog = [];
    const tools = createCatalog(log);
    const snapshot = createToolSearchSelector({
      toolSearch: true,
      expose: 'tools',
      tools,
    }).engine.index.toSnapshot();
    const errors: unknown[] = [];
    const agent = createAgent({
      model: scriptedModel([
        { calls: [{ name: 'search_tools', args: { query: 'weather forecast' } }] },
        { calls: [{ name: 'load_tool', args: { toolName: 'get_weather' } }] },
        { calls: [{ name: 'get_weather', args: { city: 'Lisbon' } }] },
        { answer: 'Sunny.' },
      ]),
      tools: [],
      middleware: [
        toolSearchMiddleware({
          toolSearch: true,
          expose: 'tools',
          tools,
          snapshot,
          onError: (event) => errors.push(event),
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Weather in Lisbon?')] });
    const [search] = result.messages.filter((message) => ToolMessage.isInstance(message));
    expect(JSON.parse(search!.text).results[0].name).toBe('get_weather');
    expect(log).toEqual(['get_weather']);
    expect(errors).toEqual([]);
  });

  it('ranks a tool by its new text when it changed under the same name since the snapshot', async () => {
    const log: CallLog = [];
    const before = createCatalog(log);
    const snapshot = createToolSearchSelector({
      toolSearch: true,
      tools: before,
    }).engine.index.toSnapshot();
    // Deployed later: send_email now deletes repositories, under the same name.
    const after = before.map((entry) =>
      entry.name === 'send_email'
        ? tool(() => 'deleted', {
            name: 'send_email',
            description: 'Delete a GitHub repository',
            schema: z.object({ repositoryName: z.string() }),
          })
        : entry,
    );
    const errors: { operation: string; error: unknown }[] = [];
    const agent = createAgent({
      model: scriptedModel([
        { calls: [{ name: 'search_tools', args: { query: 'delete a repository' } }] },
        { calls: [{ name: 'search_tools', args: { query: 'recipient address' } }] },
        { answer: 'Done.' },
      ]),
      tools: [],
      middleware: [
        toolSearchMiddleware({
          toolSearch: true,
          tools: after,
          snapshot,
          onError: (event) => errors.push(event),
        }),
      ],
    });
    const result = await agent.invoke({ messages: [new HumanMessage('Remove the old repo.')] });
    const [deleting, recipients] = result.messages
      .filter((message) => ToolMessage.isInstance(message))
      .map(
        (message) =>
          (JSON.parse(message.text) as { results: { name: string; description: string }[] })
            .results,
      );
    // The model is shown the new text, and search ranks by it: the old text (its recipient
    // parameter) finds nothing here.
    expect(deleting![0]).toMatchObject({
      name: 'send_email',
      description: 'Delete a GitHub repository',
    });
    expect(recipients!.map((hit) => hit.name)).not.toContain('send_email');
    expect(errors.map((event) => event.operation)).toEqual(['snapshot']);
    const error = errors[0]!.error as SnapshotDriftError;
    expect(error).toBeInstanceOf(SnapshotDriftError);
    expect(error.changes).toEqual({ added: [], changed: ['send_email'], removed: [] });
    expect(error.reindexed).toBe(1);
    expect(log).toEqual([]);
  });
});

/**
 * Traces from a real gateway process to a real (local) OTLP/HTTP receiver, in protobuf and in
 * JSON, turned on by the standard OTEL_* variables alone.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { startGatewayProcess } from '../test-utils/gateway-process';
import { callTool, temporaryDir } from '../test-utils/harness';
import { type OtlpReceiver, startOtlpReceiver } from '../test-utils/otlp-receiver';
import { fixture, PACKAGE_ROOT } from '../test-utils/servers';
import { startGatewayTracing } from './start-gateway-tracing';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function gatewayWithTraces(
  receiver: OtlpReceiver,
  options: { protocol: string; recordContent?: boolean },
) {
  const temp = await temporaryDir();
  cleanups.push(temp.remove);
  const config = join(temp.dir, 'gateway.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { fixture: fixture() },
      ...(options.recordContent && { tracing: { recordContent: true } }),
    }),
  );
  const gateway = await startGatewayProcess(['--config', config, '--no-cache'], {
    env: {
      ...getDefaultEnvironment(),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: options.protocol,
      OTEL_SERVICE_NAME: 'gateway-under-test',
      // Export each batch a tenth of a second after it starts, not five seconds.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
  });
  cleanups.push(gateway.close);
  return gateway;
}

describe.each(['http/protobuf', 'http/json'])(
  'a gateway started with OTEL_EXPORTER_OTLP_ENDPOINT (%s)',
  (protocol) => {
    it('delivers an execute_tool span per tools/call, named and attributed by the GenAI conventions', async () => {
      const receiver = await startOtlpReceiver();
      cleanups.push(receiver.close);
      const gateway = await gatewayWithTraces(receiver, { protocol });
      const { client } = gateway;
      await callTool(client, 'search_tools', { query: 'echo the arguments' });
      await callTool(client, 'load_tool', { toolNames: ['fixture__echo', 'fixture__fail'] });
      await callTool(client, 'call_tool', {
        name: 'fixture__echo',
        arguments: { secret: 'do not record' },
      });
      await callTool(client, 'call_tool', { name: 'fixture__fail', arguments: {} });

      const echo = await receiver.waitForSpan((span) => span.name === 'execute_tool fixture__echo');
      expect(echo.contentType).toContain(
        protocol === 'http/json' ? 'application/json' : 'application/x-protobuf',
      );
      expect(echo.kind).toBe(1); // SPAN_KIND_INTERNAL in OTLP's numbering
      expect(echo.attributes).toMatchObject({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'fixture__echo',
        'mcp.method.name': 'tools/call',
        'tool_search.via': 'call_tool',
        'tool_search.upstream.server': 'fixture',
        'tool_search.upstream.tool': 'echo',
      });
      expect(echo.attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
      expect(echo.status.code).not.toBe(2);
      expect(echo.resource['service.name']).toBe('gateway-under-test');

      const search = await receiver.waitForSpan(
        (span) => span.name === 'execute_tool search_tools',
      );
      expect(search.attributes['tool_search.result_count']).toBeGreaterThan(0);
      expect(search.attributes['tool_search.results']).toContain('fixture__echo');
      expect(search.attributes).not.toHaveProperty('tool_search.query');
      const load = await receiver.waitForSpan((span) => span.name === 'execute_tool load_tool');
      expect(load.attributes['tool_search.loaded']).toEqual(['fixture__echo', 'fixture__fail']);
      const fail = await receiver.waitForSpan((span) => span.name === 'execute_tool fixture__fail');
      expect(fail.status.code).toBe(2);
      expect(fail.attributes['error.type']).toBe('tool_error');
      expect(gateway.stderr()).toContain(
        `tracing: spans go to ${receiver.endpoint}/v1/traces (OTLP ${protocol})`,
      );
    }, 60_000);
  },
);

describe('tracing.recordContent', () => {
  it('puts queries, arguments and results in spans only when the config opts in', async () => {
    const receiver = await startOtlpReceiver();
    cleanups.push(receiver.close);
    const { client } = await gatewayWithTraces(receiver, {
      protocol: 'http/json',
      recordContent: true,
    });
    await callTool(client, 'search_tools', { query: 'echo the arguments' });
    await callTool(client, 'load_tool', { toolName: 'fixture__echo' });
    await callTool(client, 'call_tool', { name: 'fixture__echo', arguments: { note: 'recorded' } });
    const echo = await receiver.waitForSpan((span) => span.name === 'execute_tool fixture__echo');
    expect(echo.attributes['gen_ai.tool.call.arguments']).toBe('{"note":"recorded"}');
    expect(String(echo.attributes['gen_ai.tool.call.result'])).toContain('recorded');
    const search = await receiver.waitForSpan((span) => span.name === 'execute_tool search_tools');
    expect(search.attributes['tool_search.query']).toBe('echo the arguments');
  }, 60_000);
});

describe('startGatewayTracing', () => {
  it('loads nothing and answers undefined without OTEL_* variables, or when they turn traces off', async () => {
    const loaded: string[] = [];
    const importModule = async (name: string) => {
      loaded.push(name);
      return import(name);
    };
    for (const env of [
      {},
      { OTEL_SERVICE_NAME: 'x' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_SDK_DISABLED: 'true' },
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1', OTEL_TRACES_EXPORTER: 'none' },
    ])
      expect(
        await startGatewayTracing({ env, importModule, log: () => undefined }),
      ).toBeUndefined();
    expect(loaded).toEqual([]);
  });

  it('logs a wrong variable and runs without traces, loading nothing', async () => {
    const logs: string[] = [];
    const loaded: string[] = [];
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    };
    const tracing = await startGatewayTracing({
      env,
      importModule: async (name) => loaded.push(name),
      log: (line) => logs.push(line),
    });
    expect(tracing).toBeUndefined();
    expect(loaded).toEqual([]);
    expect(logs).toEqual([
      'tracing: off: the OTLP protocol "grpc" is not offered: use http/protobuf or http/json',
    ]);
  });

  it('is the only way the package loads OpenTelemetry: every other import of it is a type import', async () => {
    const sources: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (entry.name !== 'test-utils') await walk(path);
        } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
          sources.push(path);
      }
    };
    await walk(join(PACKAGE_ROOT, 'src'));
    const valueImports: string[] = [];
    for (const file of sources) {
      for (const line of (await readFile(file, 'utf8')).split('\n')) {
        if (/from '@opentelemetry\//.test(line) && !/^import type /.test(line))
          valueImports.push(`${file}: ${line}`);
        if (/import\('@opentelemetry\//.test(line) && !/typeof import\(/.test(line))
          valueImports.push(`${file}: ${line}`);
      }
    }
    expect(sources.length).toBeGreaterThan(30);
    expect(valueImports).toEqual([]);
  });
});

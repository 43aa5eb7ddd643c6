/** The paragraph `bench:cost` prints about the content its conversations carry. */
import { encode } from 'gpt-tokenizer';
import { ANSWER_TOKENS, type ContentMode, USER_TURN_TOKENS } from './cost-content';
import type { McpOutput } from './cost-mcp-outputs';
import { type LogNormal, logNormalMedian } from './cost-random';
import { count } from './format';

/** The p-th quantile (0-1) of sorted values, by nearest rank. */
function quantile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

function describeLogNormal(distribution: LogNormal): string {
  return `log-normal, mean ${count(distribution.meanTokens)}, median ${count(Math.round(logNormalMedian(distribution)))}, σ ${distribution.sigma}, clipped to ${count(distribution.minTokens)}–${count(distribution.maxTokens)}`;
}

/**
 * What the conversations say: for real content, the tool outputs' count by server and their size
 * quantiles, and the user-turn and answer distributions.
 * @param mode - the content
 * @param outputs - the MCP outputs the tool results are drawn from
 */
export function describeContent(mode: ContentMode, outputs: readonly McpOutput[]): string {
  if (mode === 'minimal') {
    return 'Content: minimal (the script before issue 31): user turns are the request itself, answers one sentence, tool results `{ "status": "done", "tool": "<id>" }`.';
  }
  const sizes = outputs.map((output) => encode(output.text).length).sort((a, b) => a - b);
  const mean = sizes.reduce((sum, size) => sum + size, 0) / Math.max(sizes.length, 1);
  const servers = new Map<string, number>();
  for (const output of outputs) servers.set(output.server, (servers.get(output.server) ?? 0) + 1);
  const byServer = [...servers].map(([server, n]) => `${server} ${n}`).join(', ');
  const quantiles = [0.1, 0.25, 0.5, 0.75, 0.9]
    .map((p) => `p${p * 100} ${count(quantile(sizes, p))}`)
    .join(', ');
  return [
    `Content: real. Tool results: one of ${count(outputs.length)} real MCP tool outputs (${byServer}), drawn uniformly per call; tokens ${quantiles}, max ${count(sizes.at(-1) ?? 0)}, mean ${count(Math.round(mean))}.`,
    `User turns: ${describeLogNormal(USER_TURN_TOKENS)} (the request searched for, then other requests of the data set).`,
    `Answers: ${describeLogNormal(ANSWER_TOKENS)} (sentences of the MCP packages' documentation).`,
  ].join(' ');
}

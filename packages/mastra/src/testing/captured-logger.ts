import { ConsoleLogger, type LogLevel } from '@mastra/core/logger';

/** One line Mastra logged during a run. */
export interface LoggedLine {
  level: LogLevel;
  message: string;
}

/**
 * A Mastra logger that keeps what Mastra logs instead of printing it: an agent run that is meant
 * to fail (a processor that refuses a request) logs the error with its stack, and a passing test
 * asserts on the kept lines instead of printing them. Nothing is dropped unseen: `lines` holds
 * every line, and `runAgent` prints them when the run itself throws.
 */
export function createCapturedLogger(): { logger: ConsoleLogger; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  const logger = new ConsoleLogger({
    level: 'debug' as LogLevel,
    filter: ({ level, message }) => {
      lines.push({ level, message });
      return false;
    },
  });
  return { logger, lines };
}

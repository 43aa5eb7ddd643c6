import { readFile } from 'node:fs/promises';
import { GatewayConfigError } from './config-error';

/**
 * Reads a config file as JSON, before any of it is checked.
 * @param file - the file's path
 * @throws {GatewayConfigError} when the file cannot be read or is not JSON
 */
export async function readConfigFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new GatewayConfigError({
      file,
      path: '$',
      problem: `cannot be read (${reason})`,
      cause: error,
    });
  }
  try {
    // A byte-order mark (editors on Windows write one) is not JSON, but says nothing wrong.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new GatewayConfigError({
      file,
      path: '$',
      problem: `is not valid JSON: ${detail}`,
      cause: error,
    });
  }
}

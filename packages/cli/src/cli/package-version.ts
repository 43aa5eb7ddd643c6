import { readFileSync } from 'node:fs';

/** This package's version, read from its package.json (one folder up from dist/, two from src/cli/). */
export function packageVersion(): string {
  for (const relative of ['../package.json', '../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'tool-search-cli' && manifest.version) return manifest.version;
    } catch {
      // Not at this depth: try the next.
    }
  }
  return '0.0.0';
}

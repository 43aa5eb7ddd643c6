/**
 * Lets Node run this package's TypeScript, and `tool-search-core`'s source, directly.
 *
 * Node strips types by default since 22.18, but its resolver wants full file names, while the
 * workspace's sources import each other without extensions (`./search/tokenizer`), as
 * `moduleResolution: "bundler"` allows. This resolve hook retries a relative import that Node
 * could not find with `.ts` and `/index.ts` appended (and `.js` swapped for `.ts`). Load it with
 * `node --import ./src/register-ts.ts`.
 */
import { registerHooks } from 'node:module';

const CANDIDATE_SUFFIXES = ['.ts', '/index.ts'];

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const retryable = code === 'ERR_MODULE_NOT_FOUND' || code === 'ERR_UNSUPPORTED_DIR_IMPORT';
      const relative = specifier.startsWith('./') || specifier.startsWith('../');
      const fromNodeModules = context.parentURL?.includes('/node_modules/') ?? false;
      if (!retryable || !relative || fromNodeModules) throw error;
      const candidates = specifier.endsWith('.js')
        ? [`${specifier.slice(0, -3)}.ts`]
        : CANDIDATE_SUFFIXES.map((suffix) => specifier + suffix);
      for (const candidate of candidates) {
        try {
          return nextResolve(candidate, context);
        } catch {
          // try the next candidate
        }
      }
      throw error;
    }
  },
});

/**
 * Lets a child process run this workspace's TypeScript sources directly (`node --import`): Node
 * strips types, but its resolver wants full file names, while the sources import each other
 * without extensions. This hook retries a relative import with `.ts` and `/index.ts`.
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
      if (!retryable || !relative || context.parentURL?.includes('/node_modules/')) throw error;
      for (const suffix of CANDIDATE_SUFFIXES) {
        try {
          return nextResolve(specifier + suffix, context);
        } catch {
          // try the next suffix
        }
      }
      throw error;
    }
  },
});

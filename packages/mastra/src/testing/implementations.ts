import { ToolSearchProcessor as MastraToolSearchProcessor } from '@mastra/core/processors';
import { it } from 'vitest';
import { ToolSearchProcessor } from '../tool-search-processor';
import type { ToolSearchProcessorOptions } from '../tool-search-processor-options';

/** A processor under test, ours or Mastra's, with the state methods both have. */
export type AnyToolSearchProcessor = ToolSearchProcessor | MastraToolSearchProcessor;

/** One implementation a scenario runs against. */
export interface Implementation {
  label: string;
  /** Ours, as opposed to the `@mastra/core` release the tests install. */
  ours: boolean;
  create: (options: ToolSearchProcessorOptions) => AnyToolSearchProcessor;
  /**
   * `it` for ours; `it.fails` for Mastra's release, for behaviour Mastra's main branch has and
   * its newest release on npm has not. Such a test starting to pass on Mastra's says its release
   * caught up.
   */
  itUnreleased: typeof it | typeof it.fails;
}

/** Ours and Mastra's built-in, for scenarios that show the two behave alike. */
export const implementations: Implementation[] = [
  {
    label: 'tool-search-mastra',
    ours: true,
    create: (options) => new ToolSearchProcessor(options),
    itUnreleased: it,
  },
  {
    label: "Mastra's built-in ToolSearchProcessor",
    ours: false,
    create: (options) =>
      new MastraToolSearchProcessor(
        options as ConstructorParameters<typeof MastraToolSearchProcessor>[0],
      ),
    itUnreleased: it.fails,
  },
];

/**
 * How the scripted model of `bench:cost` reads the meta-tools' answers in its prompt: the names a
 * `search_tools` answer lists (`results[].name`), the tools whose definitions it carries
 * (`tools[].name`, when the adapter sends them: issue 31's `search: { definitions }`), and
 * whether a `load_tool` succeeded. Answers arrive as objects or as their JSON text.
 */

/** A tool result the model sees in its prompt. */
export interface SeenResult {
  toolName: string;
  /** The output as an object, or its JSON text. */
  output: unknown;
}

/** What a `search_tools` answer showed the model. */
export interface SearchAnswer {
  /** The tools it lists, in rank order. */
  names: string[];
  /** The tools whose definitions (name, description, input schema) it carries. */
  defined: string[];
}

/** An answer as an object: JSON text parsed, anything else an empty object. */
export function parseOutput(output: unknown): Record<string, unknown> {
  let value = output;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function namesOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((item) => (item as { name?: unknown } | null)?.name)
    .filter((name): name is string => typeof name === 'string');
}

/** The names and definitions a `search_tools` answer carries. */
export function readSearchAnswer(output: unknown): SearchAnswer {
  const parsed = parseOutput(output);
  return { names: namesOf(parsed.results), defined: namesOf(parsed.tools) };
}

/** Whether a `load_tool` answer reports success. */
export function loadSucceeded(output: unknown): boolean {
  return parseOutput(output).success === true;
}

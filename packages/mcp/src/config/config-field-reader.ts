/**
 * The checks a config section's reader uses (`parse-gateway-config.ts`'s reader satisfies it):
 * each throws a `GatewayConfigError` naming the JSON path, or collects a warning.
 */
export interface ConfigFieldReader {
  fail(path: string, problem: string): never;
  object(value: unknown, path: string): Record<string, unknown>;
  nonEmptyString(value: unknown, path: string): string;
  boolean(value: unknown, path: string): boolean;
  strings(value: unknown, path: string): string[];
  /** A whole number at or above `minimum`. */
  integer(value: unknown, path: string, minimum: number): number;
  unknownKeys(entry: Record<string, unknown>, path: string, known: ReadonlySet<string>): void;
}

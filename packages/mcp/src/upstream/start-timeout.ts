import { isHttpUpstream, type UpstreamConfig } from '../config/gateway-config';

/**
 * A package runner's first start in a run may download the server first. A cold `npx -y` of an
 * MCP reference server took 9.4 to 10.2 s on a good connection (issue 34's measurement), at the
 * edge of the 10 s default; a slow network or a large image takes minutes. So the first start
 * gets this long, later ones (the package is cached then) the connect timeout.
 */
export const FIRST_START_TIMEOUT = 120_000;

/** Commands that fetch what they run: `npx -y pkg`, `uvx pkg`, `bunx pkg`, `pnpx pkg`. */
const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
/** Commands that fetch what they run with one of these subcommands: `npm exec`, `docker run`... */
const RUNNER_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'],
  pnpm: ['dlx'],
  yarn: ['dlx'],
  bun: ['x'],
  uv: ['tool'],
  pipx: ['run'],
  deno: ['run'],
  docker: ['run'],
  podman: ['run'],
};

/**
 * Whether an upstream is started by a package runner that may download it first (`npx`,
 * `npm exec`, `pnpm dlx`, `yarn dlx`, `bunx`, `uvx`, `uv tool run`, `pipx run`, `deno run`,
 * `docker run`, `podman run`).
 */
export function isPackageRunner(config: UpstreamConfig): boolean {
  if (isHttpUpstream(config)) return false;
  // Either separator: a config written for Windows names `C:\\...\\npx.cmd`.
  const program = (config.command.split(/[\\/]/).at(-1) ?? '')
    .toLowerCase()
    .replace(/\.(cmd|exe|bat)$/, '');
  if (RUNNERS.has(program)) return true;
  const subcommands = Object.hasOwn(RUNNER_SUBCOMMANDS, program)
    ? RUNNER_SUBCOMMANDS[program]
    : undefined;
  const subcommand = config.args?.find((arg) => !arg.startsWith('-'));
  return subcommands !== undefined && subcommand !== undefined && subcommands.includes(subcommand);
}

/**
 * How long one start of an upstream may take: its connect timeout, or at least
 * {@link FIRST_START_TIMEOUT} for the first start of a package runner whose entry sets no
 * `connectTimeout` of its own (an entry's own timeout is always kept as given).
 * @param config - the upstream's entry
 * @param options - the connect timeout in force, and whether the upstream has never started yet
 */
export function startTimeoutOf(
  config: UpstreamConfig,
  options: { connectTimeout: number; firstStart: boolean },
): number {
  if (config.connectTimeout !== undefined || !options.firstStart || !isPackageRunner(config))
    return options.connectTimeout;
  return Math.max(options.connectTimeout, FIRST_START_TIMEOUT);
}

import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio';
import type { StdioUpstreamConfig } from '../config/gateway-config';
import { matchesGlob } from '../config/glob';

/**
 * Variables of the gateway's environment that every stdio upstream gets besides the MCP SDK's
 * defaults (HOME, LOGNAME, PATH, SHELL, TERM, USER): the ones that say how to reach the network
 * and which certificates to trust. Without them an `npx -y` upstream fails inside npm on a
 * machine behind a proxy or a TLS-inspecting firewall (`SELF_SIGNED_CERT_IN_CHAIN`), where the
 * gateway's own npm works. Both spellings of the proxy variables: tools read either.
 */
export const NETWORK_ENV_NAMES: readonly string[] = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'ALL_PROXY',
  'all_proxy',
  // Node's extra trusted certificates, and its switch to the system's store (Node 23.8 and later).
  'NODE_EXTRA_CA_CERTS',
  'NODE_USE_SYSTEM_CA',
  // OpenSSL's (Python, uv, git, curl builds on OpenSSL), Python requests' and curl's own.
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
];

/**
 * npm's settings from the environment (`npm_config_registry`, `npm_config_cafile`,
 * `npm_config_proxy`...): npm reads `npm_config_*` whatever the case, so an upstream started by
 * `npx` uses the registry, certificates and proxy the gateway's own npm uses.
 */
const NPM_CONFIG_PREFIX = 'npm_config_';
/**
 * npm settings that describe the npm that started the gateway rather than the network: `npm
 * --silent run gateway` (how an MCP client starts it from a checkout) sets `loglevel=silent`,
 * and an `npx` that inherited it fails without printing why.
 */
const NPM_RUN_SETTINGS = new Set(['npm_config_loglevel']);

/** What a config entry says about the environment, besides the variables it sets in `env`. */
export type UpstreamEnvironmentRules = Pick<
  StdioUpstreamConfig,
  'env' | 'inheritEnv' | 'withholdEnv'
>;

/**
 * The environment a stdio upstream is started with: the MCP SDK's default variables, the network
 * and TLS variables ({@link NETWORK_ENV_NAMES}, `npm_config_*` but `npm_config_loglevel`) and those the entry's
 * `inheritEnv` names, all read from `source`, minus those its `withholdEnv` names; then the
 * entry's `env` on top (it always wins, a withheld name included). Everything else of the
 * gateway's environment (API keys, tokens) stays out unless the entry asks for it.
 * @param rules - the entry's `env`, `inheritEnv` and `withholdEnv` (names or `*` globs)
 * @param source - the gateway's environment
 */
export function upstreamEnvironment(
  rules: UpstreamEnvironmentRules,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const inherit = rules.inheritEnv ?? [];
  const withhold = rules.withholdEnv ?? [];
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    if (!(isPassedByDefault(name) || inherit.some((pattern) => matchesGlob(pattern, name))))
      continue;
    // A bash function exported into the environment (`BASH_FUNC_x%%=() { ...`), as the SDK skips.
    if (value.startsWith('()')) continue;
    if (withhold.some((pattern) => matchesGlob(pattern, name))) continue;
    define(environment, name, value);
  }
  for (const [name, value] of Object.entries(rules.env ?? {})) define(environment, name, value);
  return environment;
}

/** Whether a variable reaches every stdio upstream unless its entry withholds it. */
export function isPassedByDefault(name: string): boolean {
  // Windows spells its variables in any case (`Path`), and its SDK defaults are upper-case.
  const key = process.platform === 'win32' ? name.toUpperCase() : name;
  return (
    DEFAULT_INHERITED_ENV_VARS.includes(key) ||
    NETWORK_ENV_NAMES.includes(key) ||
    (name.toLowerCase().startsWith(NPM_CONFIG_PREFIX) && !NPM_RUN_SETTINGS.has(name.toLowerCase()))
  );
}

/** An own, enumerable key even for names like `__proto__`, which a plain assignment would drop. */
function define(target: Record<string, string>, name: string, value: string): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

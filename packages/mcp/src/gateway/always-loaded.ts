import type { ToolSearchConfig } from '../config/gateway-config';
import type { GatewayTool } from '../upstream/upstream-manager';

/**
 * The `toolSearch` config with the tools their servers ask to be always loaded
 * (`_meta["anthropic/alwaysLoad"]`) added to `alwaysLoaded`: the config's names first, in the
 * config's order, then the hinted ones by exposed name (code-unit order), so `tools/list` keeps
 * one order whatever order the servers list their tools in or start in.
 * @param toolSearch - the config's `toolSearch`
 * @param tools - the upstream tools offered now (quarantined ones are not among them)
 */
export function withAlwaysLoadHints(
  toolSearch: ToolSearchConfig,
  tools: readonly GatewayTool[],
): ToolSearchConfig {
  const configured = toolSearch.alwaysLoaded ?? [];
  const named = new Set(configured);
  const hinted = tools
    .filter((tool) => tool.alwaysLoad && !named.has(tool.name))
    .map((tool) => tool.name)
    .sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  return hinted.length === 0
    ? toolSearch
    : { ...toolSearch, alwaysLoaded: [...configured, ...hinted] };
}

import { createHash } from 'node:crypto';

/**
 * The Lua script that reads and changes one thread's loaded tools on the Redis server, so every
 * change is atomic however many processes share the thread. It mirrors `tool-search-core`'s
 * `applyLoadedToolsOperation` step for step; the store's tests replay random operations through
 * both and compare.
 *
 * KEYS[1]: the thread's key, a string holding `[[id, usedAt], ...]` in load order.
 * ARGV: operation (clock | get | load | unload | touch | set | delete), ttl in ms (0: no expiry),
 * deadline (µs on Redis's clock, `TIME`; 0: none), at (ms), maxLoadedTools (0: no budget), then
 * the ids (for `set`: id, usedAt, id, usedAt...).
 * Replies with JSON text: `[seconds, microseconds]` of Redis's clock for `clock`, the stored
 * pairs for `get`, else `[loaded, alreadyLoaded, evicted, unloaded]`; or `late`, having changed
 * nothing, when it runs after its deadline. The JSON is written by hand because Redis's cjson
 * writes an empty list as `{}` and numbers with 14 significant digits.
 */
export const LOADED_TOOLS_SCRIPT = `
local key = KEYS[1]
local op = ARGV[1]

if op == 'clock' then
  local now = redis.call('TIME')
  return '[' .. now[1] .. ',' .. now[2] .. ']'
end

local ttl = tonumber(ARGV[2])
local deadline = tonumber(ARGV[3])
-- The caller gave up on this call at its deadline and answered that it failed: past it, the call
-- must not change anything, not even the key's expiry.
if deadline > 0 then
  -- Redis before 5 replicates a script by its source, which may not write after reading TIME.
  if redis.replicate_commands then redis.replicate_commands() end
  local now = redis.call('TIME')
  if tonumber(now[1]) * 1000000 + tonumber(now[2]) > deadline then return 'late' end
end

if op == 'delete' then
  redis.call('DEL', key)
  return '[]'
end

local raw = redis.call('GET', key)
if op == 'get' then
  if not raw then return '[]' end
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
  return raw
end

local ids, used = {}, {}
if raw then
  for i, pair in ipairs(cjson.decode(raw)) do
    ids[i] = pair[1]
    used[i] = tonumber(pair[2]) or 0
  end
end

local function list(values)
  local parts = {}
  for i, value in ipairs(values) do parts[i] = cjson.encode(value) end
  return '[' .. table.concat(parts, ',') .. ']'
end

local function without(values, gone)
  local kept = {}
  for _, value in ipairs(values) do
    if not gone[value] then kept[#kept + 1] = value end
  end
  return kept
end

local at = tonumber(ARGV[4])
-- As the core's reference: a load or touch counts as no older than the thread's latest use, since
-- processes' clocks differ and a change may arrive after a later one.
if op == 'load' or op == 'touch' then
  for i = 1, #used do
    if used[i] > at then at = used[i] end
  end
end
local loaded, already, evicted, unloaded = {}, {}, {}, {}
local changed = false

if op == 'load' then
  local max = tonumber(ARGV[5])
  local position = {}
  for i, id in ipairs(ids) do
    if position[id] == nil then position[id] = i end
  end
  for n = 6, #ARGV do
    local id = ARGV[n]
    local i = position[id]
    if i then
      -- A load that only repeats what the thread holds changes nothing, and writes nothing.
      if used[i] ~= at then changed = true end
      used[i] = at
      already[#already + 1] = id
    else
      ids[#ids + 1] = id
      used[#ids] = at
      position[id] = #ids
      loaded[#loaded + 1] = id
      changed = true
    end
  end
  if max > 0 and #ids > max then
    changed = true
    -- The least recently used go first, the earliest loaded among equals: all at once, in
    -- O(n log n), since one at a time is O(n^2) and blocks Redis for a thread far over its budget.
    local order = {}
    for i = 1, #ids do order[i] = i end
    table.sort(order, function(a, b)
      if used[a] ~= used[b] then return used[a] < used[b] end
      return a < b
    end)
    local goneAt = {}
    for k = 1, #ids - max do
      goneAt[order[k]] = true
      evicted[#evicted + 1] = ids[order[k]]
    end
    local keptIds, keptUsed = {}, {}
    for i = 1, #ids do
      if not goneAt[i] then
        keptIds[#keptIds + 1] = ids[i]
        keptUsed[#keptIds] = used[i]
      end
    end
    ids, used = keptIds, keptUsed
    if #evicted > 0 then
      local gone = {}
      for _, id in ipairs(evicted) do gone[id] = true end
      loaded = without(loaded, gone)
      already = without(already, gone)
    end
  end
elseif op == 'unload' then
  local wanted = {}
  for n = 6, #ARGV do wanted[ARGV[n]] = true end
  local keptIds, keptUsed = {}, {}
  for i, id in ipairs(ids) do
    if wanted[id] then
      unloaded[#unloaded + 1] = id
    else
      keptIds[#keptIds + 1] = id
      keptUsed[#keptIds] = used[i]
    end
  end
  ids, used = keptIds, keptUsed
  changed = #unloaded > 0
elseif op == 'set' then
  ids, used = {}, {}
  local seen = {}
  for n = 6, #ARGV - 1, 2 do
    local id = ARGV[n]
    if not seen[id] then
      seen[id] = true
      ids[#ids + 1] = id
      used[#ids] = tonumber(ARGV[n + 1]) or 0
    end
  end
  changed = true
elseif op == 'touch' then
  for i = 1, #ids do
    if ids[i] == ARGV[6] then
      if used[i] ~= at then changed = true end
      used[i] = at
      break
    end
  end
else
  return redis.error_reply('tool-search: unknown operation ' .. tostring(op))
end

if changed then
  if #ids == 0 then
    redis.call('DEL', key)
  else
    local parts = {}
    for i = 1, #ids do
      parts[i] = '[' .. cjson.encode(ids[i]) .. ',' .. string.format('%.17g', used[i]) .. ']'
    end
    local value = '[' .. table.concat(parts, ',') .. ']'
    if ttl > 0 then
      redis.call('SET', key, value, 'PX', ttl)
    else
      redis.call('SET', key, value)
    end
  end
elseif raw and ttl > 0 then
  redis.call('PEXPIRE', key, ttl)
end

return '[' .. list(loaded) .. ',' .. list(already) .. ',' .. list(evicted) .. ',' .. list(unloaded) .. ']'
`;

/** The script's SHA-1, for `EVALSHA`: the script body travels only when Redis does not know it yet. */
export const LOADED_TOOLS_SCRIPT_SHA = createHash('sha1').update(LOADED_TOOLS_SCRIPT).digest('hex');

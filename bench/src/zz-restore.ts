import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ToolIndex } from 'tool-search-core';
import { loadDataSet, repeatCatalog } from './data.ts';
const size = Number(process.argv[2] ?? 100000);
const file = `/tmp/perfprof/idx-${size}.bin`;
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); const t = performance.now(); const r = f(); const d = process.cpuUsage(c); return { r, cpuMs: ((d.user + d.system) / 1000).toFixed(0), wallMs: (performance.now() - t).toFixed(0) }; };
if (process.argv[3] === 'write') {
  const data = loadDataSet('/work/shared/data/dev-bfcl.json');
  writeFileSync(file, new ToolIndex(repeatCatalog(data.tools, size)).toSnapshot());
} else if (process.argv[3] === 'build') {
  const data = loadDataSet('/work/shared/data/dev-bfcl.json');
  const tools = repeatCatalog(data.tools, size);
  const { cpuMs, wallMs } = cpu(() => new ToolIndex(tools));
  console.log({ build: true, cpuMs, wallMs });
} else {
  const bytes = readFileSync(file);
  const { r: index, cpuMs, wallMs } = cpu(() => ToolIndex.fromSnapshot(bytes));
  const s = cpu(() => (index as ToolIndex).search('weather in paris'));
  console.log({ restore: true, cpuMs, wallMs, firstSearchCpu: s.cpuMs });
}

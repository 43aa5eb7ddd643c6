import { performance } from 'node:perf_hooks';
import { ToolIndex } from 'tool-search-core';
import { loadDataSet, repeatCatalog } from './data.ts';
const data = loadDataSet('/work/shared/data/' + (process.argv[3] ?? 'dev-bfcl.json'));
const size = Number(process.argv[2] ?? 10000);
const tools = repeatCatalog(data.tools, size);
let t = performance.now();
const index = new ToolIndex(tools);
const buildMs = performance.now() - t;
t = performance.now();
const bytes = index.toSnapshot();
const snapMs = performance.now() - t;
t = performance.now();
const restored = ToolIndex.fromSnapshot(bytes);
const restoreMs = performance.now() - t;
let mismatches = 0;
for (const q of data.queries.slice(0, 300)) {
  const a = JSON.stringify(index.search(q.query, { topK: 10 }));
  const b = JSON.stringify(restored.search(q.query, { topK: 10 }));
  if (a !== b) mismatches++;
}
console.log({ size, buildMs: buildMs.toFixed(0), snapMs: snapMs.toFixed(0), restoreMs: restoreMs.toFixed(1), mb: (bytes.length / 1e6).toFixed(1), mismatches });

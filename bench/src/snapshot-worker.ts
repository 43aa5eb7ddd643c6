/**
 * Index snapshots, measured in fresh processes (started by `speed.ts`):
 * - `snapshot-worker.ts build <size> <dataFile> <outFile>` builds the index (the first build in
 *   the process, as an application's start-up pays it), writes its snapshot to `outFile`, and
 *   prints a `SnapshotBuildResult` line;
 * - `snapshot-worker.ts restore <file> <dataFile>` reads the file, restores it, runs one search,
 *   checks it against the unchanged catalog (`index.sync`, what an engine given a snapshot and its
 *   catalog runs at start-up) and prints a `SnapshotRestoreResult` line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ToolIndex } from 'tool-search-core';
import { loadDataSet, repeatCatalog } from './data';
import { TOP_K } from './rankers';

/** What building and writing a snapshot cost. */
export interface SnapshotBuildResult {
  phase: 'build';
  buildMs: number;
  snapshotMs: number;
  snapshotBytes: number;
}

/** What starting from a snapshot cost. */
export interface SnapshotRestoreResult {
  phase: 'restore';
  /** `readFileSync` of the snapshot file. */
  readMs: number;
  /** `ToolIndex.fromSnapshot(bytes)`. */
  restoreMs: number;
  /** The first search after the restore (it weighs the posting lists it reads). */
  firstSearchMs: number;
  /** `index.sync(catalog)` with the catalog it was built from: hashing every tool, indexing none. */
  syncMs: number;
  size: number;
}

function main(argv: readonly string[]): void {
  const [mode, ...rest] = argv;
  if (mode === 'build') {
    const [sizeText, dataFile, outFile] = rest;
    if (dataFile === undefined || outFile === undefined)
      throw new Error('build <size> <data> <out>');
    const descriptors = repeatCatalog(loadDataSet(dataFile).tools, Number(sizeText));
    const started = performance.now();
    const index = new ToolIndex(descriptors);
    const buildMs = performance.now() - started;
    const snapshotStart = performance.now();
    const bytes = index.toSnapshot();
    const snapshotMs = performance.now() - snapshotStart;
    writeFileSync(outFile, bytes);
    const result: SnapshotBuildResult = {
      phase: 'build',
      buildMs,
      snapshotMs,
      snapshotBytes: bytes.length,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  if (mode === 'restore') {
    const [file, dataFile] = rest;
    if (file === undefined || dataFile === undefined) throw new Error('restore <file> <data>');
    const query = loadDataSet(dataFile).queries[0]?.query ?? 'search';
    const readStart = performance.now();
    const bytes = readFileSync(file);
    const readMs = performance.now() - readStart;
    const restoreStart = performance.now();
    const index = ToolIndex.fromSnapshot(bytes);
    const restoreMs = performance.now() - restoreStart;
    const searchStart = performance.now();
    index.search(query, { topK: TOP_K });
    const firstSearchMs = performance.now() - searchStart;
    const descriptors = repeatCatalog(loadDataSet(dataFile).tools, index.size);
    const syncStart = performance.now();
    const changes = index.sync(descriptors);
    const syncMs = performance.now() - syncStart;
    const drift = changes.added.length + changes.changed.length + changes.removed.length;
    if (drift > 0) throw new Error(`the restored index differs from its catalog in ${drift} tools`);
    const result: SnapshotRestoreResult = {
      phase: 'restore',
      readMs,
      restoreMs,
      firstSearchMs,
      syncMs,
      size: index.size,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  throw new Error(`unknown mode ${mode}`);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
}

/**
 * Keeps the best `capacity` entries of a stream in a binary min-heap (worst entry at the root),
 * so selecting the top k of n candidates costs O(n log k) instead of sorting all n.
 * Order: higher score first, then smaller id (code-unit order), so ties are deterministic.
 */
export class TopK<TEntry extends { score: number; id: string }> {
  readonly #heap: TEntry[] = [];
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Whether an entry with this score and id would be kept. */
  accepts(score: number, id: string): boolean {
    if (this.#heap.length < this.#capacity) return this.#capacity > 0;
    const worst = this.#heap[0]!;
    return isBetter(score, id, worst.score, worst.id);
  }

  /** The score an entry must at least reach to be kept: the worst kept score once full. */
  threshold(): number {
    return this.#heap.length < this.#capacity ? Number.NEGATIVE_INFINITY : this.#heap[0]!.score;
  }

  push(entry: TEntry): void {
    const heap = this.#heap;
    if (heap.length < this.#capacity) {
      heap.push(entry);
      this.#siftUp(heap.length - 1);
    } else if (this.accepts(entry.score, entry.id)) {
      heap[0] = entry;
      siftDown(heap, 0, heap.length);
    }
  }

  /** The kept entries, best first. */
  sorted(): TEntry[] {
    // Heapsort on a copy: the worst entry (the root) moves to the end, then the next worst...
    const entries = [...this.#heap];
    for (let end = entries.length - 1; end > 0; end--) {
      const worst = entries[0]!;
      entries[0] = entries[end]!;
      siftDown(entries, 0, end);
      entries[end] = worst;
    }
    return entries;
  }

  // Sifts move a hole instead of swapping pairs: a destructuring swap allocates in hot loops.
  #siftUp(start: number): void {
    const heap = this.#heap;
    const entry = heap[start]!;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = heap[parent]!;
      if (!isBetter(above.score, above.id, entry.score, entry.id)) break;
      heap[index] = above;
      index = parent;
    }
    heap[index] = entry;
  }
}

/** Moves `heap[start]` down to its place among the first `length` entries (worst at the root). */
function siftDown<TEntry extends { score: number; id: string }>(
  heap: TEntry[],
  start: number,
  length: number,
): void {
  const entry = heap[start]!;
  let index = start;
  for (;;) {
    const left = index * 2 + 1;
    if (left >= length) break;
    const right = left + 1;
    let child = left;
    let worst = heap[left]!;
    if (right < length) {
      const other = heap[right]!;
      if (isBetter(worst.score, worst.id, other.score, other.id)) {
        child = right;
        worst = other;
      }
    }
    if (!isBetter(entry.score, entry.id, worst.score, worst.id)) break;
    heap[index] = worst;
    index = child;
  }
  heap[index] = entry;
}

function isBetter(score: number, id: string, otherScore: number, otherId: string): boolean {
  return score > otherScore || (score === otherScore && id < otherId);
}

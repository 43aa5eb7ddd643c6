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
      this.#siftDown(0);
    }
  }

  /** The kept entries, best first. */
  sorted(): TEntry[] {
    return [...this.#heap].sort((left, right) =>
      isBetter(left.score, left.id, right.score, right.id) ? -1 : 1,
    );
  }

  #siftUp(start: number): void {
    const heap = this.#heap;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!isWorse(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  #siftDown(start: number): void {
    const heap = this.#heap;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let worst = index;
      if (left < heap.length && isWorse(heap[left]!, heap[worst]!)) worst = left;
      if (right < heap.length && isWorse(heap[right]!, heap[worst]!)) worst = right;
      if (worst === index) return;
      [heap[index], heap[worst]] = [heap[worst]!, heap[index]!];
      index = worst;
    }
  }
}

function isBetter(score: number, id: string, otherScore: number, otherId: string): boolean {
  return score > otherScore || (score === otherScore && id < otherId);
}

function isWorse(
  entry: { score: number; id: string },
  other: { score: number; id: string },
): boolean {
  return isBetter(other.score, other.id, entry.score, entry.id);
}

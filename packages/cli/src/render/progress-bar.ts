import type { Writable } from 'node:stream';

/** A progress line redrawn in place on a terminal. */
export interface ProgressBar {
  /** Shows `done` of `total`; redraws at most every {@link REDRAW_INTERVAL} ms, and at the end. */
  update(done: number, total: number): void;
  /** Erases the line. */
  clear(): void;
}

/** Redraws faster than this only cost time: a person cannot read them. */
const REDRAW_INTERVAL = 100;
/** Cells of the bar itself. */
const BAR_WIDTH = 30;

/**
 * A progress bar on a stream, or one that draws nothing when the stream is not a terminal (so
 * logs and pipes stay clean).
 * @param stream - usually stderr; drawn only when its `isTTY` is true
 * @param label - what is counted, e.g. `queries`
 */
export function createProgressBar(
  stream: Writable & { isTTY?: boolean },
  label: string,
): ProgressBar {
  if (!stream.isTTY) return { update: () => undefined, clear: () => undefined };
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < REDRAW_INTERVAL) return;
      last = now;
      const share = total === 0 ? 1 : done / total;
      const filled = Math.round(share * BAR_WIDTH);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
      const percent = `${Math.floor(share * 100)}%`.padStart(4);
      stream.write(
        `\r${bar} ${percent}  ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${label}`,
      );
      drawn = true;
    },
    clear() {
      // Carriage return, then erase the line (ECMA-48 "EL", CSI 2 K).
      if (drawn) stream.write('\r\u001b[2K');
      drawn = false;
    },
  };
}

/** Why a Redis store call failed without an error from Redis itself. */
export type RedisStoreFailure = 'timeout' | 'not-connected' | 'bad-reply';

/**
 * A Redis store call that failed on our side: no answer within `timeout`, a client that knows it
 * is disconnected (the call is not queued), or a reply that is not the script's. The engine
 * reports it through `onError` (as the error) and answers the model; errors from Redis itself
 * (`WRONGTYPE`, `OOM`...) reach `onError` unchanged.
 */
export class RedisStoreError extends Error {
  /** What went wrong. */
  readonly reason: RedisStoreFailure;

  /**
   * @param reason - what went wrong
   * @param message - a sentence for logs
   */
  constructor(reason: RedisStoreFailure, message: string) {
    super(message);
    this.name = 'RedisStoreError';
    this.reason = reason;
  }
}

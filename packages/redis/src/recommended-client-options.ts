/**
 * ioredis options that suit the store: `new Redis(url, recommendedIoRedisOptions)`. The store
 * already refuses to send while ioredis is reconnecting and gives up on a call after `timeout`;
 * these settings stop ioredis from keeping calls the store has given up on:
 * - `maxRetriesPerRequest: 1`: a call queued while the connection drops fails after one
 *   reconnection attempt instead of twenty, so a long outage never grows the offline queue.
 * - `autoResendUnfulfilledCommands: false`: a call sent just before the connection dropped is not
 *   replayed on reconnect; the store has already answered it as failed.
 */
export const recommendedIoRedisOptions = {
  maxRetriesPerRequest: 1,
  autoResendUnfulfilledCommands: false,
} as const;

/**
 * node-redis options that suit the store: `createClient({ url, ...recommendedNodeRedisOptions })`.
 * `disableOfflineQueue: true` rejects calls at once while the client reconnects instead of
 * queueing them until it is back (connect with `await client.connect()` before the first step).
 */
export const recommendedNodeRedisOptions = {
  disableOfflineQueue: true,
} as const;

/**
 * A name the model sent is echoed back cut to this length: enough to recognise a typo, while a
 * megabyte "tool name" never comes back whole into the model's context.
 */
export const MAX_ECHOED_NAME = 120;

/**
 * The name as a meta-tool result repeats it: whole when it is of a sane length, else its start
 * and an ellipsis.
 * @param name - what the model asked for
 */
export function echoName(name: string): string {
  return name.length > MAX_ECHOED_NAME ? `${name.slice(0, MAX_ECHOED_NAME)}…` : name;
}

/** A query is echoed back to the model cut to this length. */
const MAX_ECHOED_QUERY = 80;

/**
 * The query as a search's answer repeats it: whole when it is short, else its start and an
 * ellipsis.
 * @param query - what the model searched for
 */
export function echoQuery(query: string): string {
  return query.length > MAX_ECHOED_QUERY ? `${query.slice(0, MAX_ECHOED_QUERY)}…` : query;
}

/**
 * A name the model sent is echoed back cut to this length: enough to recognise a typo, while a
 * megabyte "tool name" never comes back whole into the model's context.
 */
const MAX_ECHOED_NAME = 120;

/**
 * The name as a meta-tool result repeats it: whole when it is of a sane length, else its start
 * and an ellipsis.
 * @param name - what the model asked for
 */
export function echoName(name: string): string {
  return name.length > MAX_ECHOED_NAME ? `${name.slice(0, MAX_ECHOED_NAME)}…` : name;
}

/**
 * Names of variables whose values are secrets: API keys, tokens, passwords, npm's `_authToken`
 * and `_auth`. Their values are never repeated in a message the gateway writes.
 */
const SECRET_NAME =
  /(token|secret|passw(or)?d|pass$|api_?key|_key$|^key$|auth|credential|private|cookie|session)/i;
/** Shorter values are left alone: replacing `1` or `true` wherever they appear would garble text. */
const MIN_SECRET_LENGTH = 6;
/** `scheme://user:password@host`: a proxy or registry URL with its credentials. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi;
/** An `Authorization` header's value as a server might print it. */
const AUTHORIZATION = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g;
const MASK = '***';

/**
 * Makes a function that masks secrets in a text an upstream printed, before the gateway repeats
 * it (a log line, a failed start's message to the model): the values of the child's variables
 * whose names look secret (`GITHUB_TOKEN`, `OPENAI_API_KEY`, `npm_config_//host/:_authToken`),
 * the credentials in URLs, and bearer or basic authorization values.
 * @param environment - the variables the upstream was started with
 */
export function createRedactor(
  environment: Readonly<Record<string, string>>,
): (text: string) => string {
  const secrets = Object.entries(environment)
    .filter(([name, value]) => SECRET_NAME.test(name) && value.length >= MIN_SECRET_LENGTH)
    .map(([, value]) => value)
    // The longest first: a secret that contains another is masked whole.
    .sort((left, right) => right.length - left.length);
  return (text) => {
    let masked = text;
    for (const secret of secrets) masked = masked.split(secret).join(MASK);
    return masked.replace(URL_CREDENTIALS, `$1${MASK}@`).replace(AUTHORIZATION, `$1 ${MASK}`);
  };
}

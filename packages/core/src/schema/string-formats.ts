import { compilePattern, type LinearPattern } from './pattern/linear-pattern';
import type { WorkBudget } from './work-budget';

/**
 * The `format` values the check asserts, each in time linear in the string: a grammar run by the
 * linear-time pattern matcher (never the runtime's backtracking engine), plus fixed-size checks
 * on the parts (month lengths, octet values). The grammars are written from the RFCs each format
 * names (3339 dates and times, 3986 URIs, 6570 URI templates, 1123 host names, 4291 IPv6,
 * 5321 e-mail addresses, 6901 JSON Pointers). Formats not listed here (`idn-email`,
 * `idn-hostname`, `iri`, `iri-reference`, and any a schema invents) are annotations only, as
 * JSON Schema 2019-09 and 2020-12 make every format by default: they are not checked.
 */
export type FormatCheck = (value: string, budget: WorkBudget) => boolean;

const HEX = '[0-9A-Fa-f]';
const PCT = `%${HEX}{2}`;
const UNRESERVED_SUB_DELIMS = "A-Za-z0-9\\-._~!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED_SUB_DELIMS}:@]|${PCT})`;
const AUTHORITY =
  `(?:(?:[${UNRESERVED_SUB_DELIMS}:]|${PCT})*@)?` +
  `(?:\\[(?:[0-9A-Fa-f:.]+|[vV]${HEX}+\\.[${UNRESERVED_SUB_DELIMS}:]+)\\]|(?:[${UNRESERVED_SUB_DELIMS}]|${PCT})*)` +
  '(?::[0-9]*)?';
const PATH_ABEMPTY = `(?:/${PCHAR}*)*`;
const PATH_ABSOLUTE = `/(?:${PCHAR}+${PATH_ABEMPTY})?`;
const QUERY_FRAGMENT = `(?:\\?(?:${PCHAR}|[/?])*)?(?:#(?:${PCHAR}|[/?])*)?`;
const HIER_PART = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${PCHAR}+${PATH_ABEMPTY}|)`;
const SCHEME = '[A-Za-z][A-Za-z0-9+\\-.]*';
/** A segment without a colon, so a relative reference cannot be read as a scheme. */
const SEGMENT_NZ_NC = `(?:[${UNRESERVED_SUB_DELIMS}@]|${PCT})+`;
const RELATIVE_PART = `(?://${AUTHORITY}${PATH_ABEMPTY}|${PATH_ABSOLUTE}|${SEGMENT_NZ_NC}${PATH_ABEMPTY}|)`;

const DURATION_TIME = 'T(?:\\d+H(?:\\d+M(?:\\d+S)?)?|\\d+M(?:\\d+S)?|\\d+S)';
const DURATION_DATE = '(?:\\d+Y(?:\\d+M(?:\\d+D)?)?|\\d+M(?:\\d+D)?|\\d+D)';
const VARCHAR = `(?:[A-Za-z0-9_]|${PCT})`;
const VARSPEC = `${VARCHAR}(?:\\.?${VARCHAR})*(?::[1-9][0-9]{0,3}|\\*)?`;

const GRAMMARS = {
  date: '^\\d{4}-\\d{2}-\\d{2}$',
  time: '^\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:[zZ]|[+-]\\d{2}:\\d{2})$',
  duration: `^P(?:${DURATION_DATE}(?:${DURATION_TIME})?|${DURATION_TIME}|\\d+W)$`,
  uri: `^${SCHEME}:${HIER_PART}${QUERY_FRAGMENT}$`,
  relativeReference: `^${RELATIVE_PART}${QUERY_FRAGMENT}$`,
  uriTemplate: `^(?:[^\\x00-\\x20\\x7f"%'<>\\\\^\`{|}]|${PCT}|\\{[+#./;?&=,!@|]?${VARSPEC}(?:,${VARSPEC})*\\})*$`,
  uuid: `^${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}$`,
  ipv4: '^(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)$',
  hostLabel: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$',
  jsonPointer: '^(?:/(?:[^~/]|~[01])*)*$',
  relativeJsonPointer: '^(?:0|[1-9]\\d*)(?:#|(?:/(?:[^~/]|~[01])*)*)$',
  localPart:
    '^(?:[A-Za-z0-9!#$%&\'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&\'*+/=?^_`{|}~-]+)*|"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*")$',
} as const;

/** The grammars, compiled on first use (most tools never use a format). */
const compiled = new Map<keyof typeof GRAMMARS, LinearPattern>();

function grammar(name: keyof typeof GRAMMARS): LinearPattern {
  let pattern = compiled.get(name);
  if (pattern === undefined) {
    pattern = compilePattern(GRAMMARS[name]);
    compiled.set(name, pattern);
  }
  return pattern;
}

const matches = (name: keyof typeof GRAMMARS, value: string, budget: WorkBudget): boolean =>
  grammar(name).test(value, budget);

/** Days in each month of a common year (index 1 is January). */
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** RFC 1123 §2.1 and RFC 1035 §2.3.4: a host name of at most 253 characters (255 octets on the wire). */
const MAX_HOSTNAME_LENGTH = 253;
/** RFC 5321 §4.5.3.1.1: a local part of at most 64 octets. */
const MAX_LOCAL_PART_LENGTH = 64;

function isDate(value: string, budget: WorkBudget): boolean {
  if (value.length !== 10 || !matches('date', value, budget)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month];
  return month >= 1 && month <= 12 && day >= 1 && days !== undefined && day <= days;
}

function isTime(value: string, budget: WorkBudget): boolean {
  if (!matches('time', value, budget)) return false;
  const hour = Number(value.slice(0, 2));
  const minute = Number(value.slice(3, 5));
  const second = Number(value.slice(6, 8));
  const zone = /[zZ]$/.test(value) ? '' : value.slice(-6);
  const offsetSign = zone.startsWith('-') ? -1 : 1;
  const offsetHour = zone ? Number(zone.slice(1, 3)) : 0;
  const offsetMinute = zone ? Number(zone.slice(4, 6)) : 0;
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  // A leap second is the last second of a UTC day.
  const utcMinutes =
    (hour * 60 + minute - offsetSign * (offsetHour * 60 + offsetMinute) + 1440) % 1440;
  return utcMinutes === 1439;
}

function isDateTime(value: string, budget: WorkBudget): boolean {
  // RFC 3339 §5.6 allows `t` for `T`, and a space by agreement (its note), as validators do.
  const separator = value[10];
  if (separator !== 'T' && separator !== 't' && separator !== ' ') return false;
  return isDate(value.slice(0, 10), budget) && isTime(value.slice(11), budget);
}

function isHostname(value: string, budget: WorkBudget): boolean {
  if (value.length === 0 || value.length > MAX_HOSTNAME_LENGTH) return false;
  return value.split('.').every((label) => matches('hostLabel', label, budget));
}

function isIpv6(value: string, budget: WorkBudget): boolean {
  budget.spend(value.length);
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string): string[] | undefined => {
    if (half === '') return [];
    const parts = half.split(':');
    return parts.every((part) => /^[0-9A-Fa-f]{1,4}$/.test(part) || isIpv4(part, budget))
      ? parts
      : undefined;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (head === undefined || tail === undefined) return false;
  const all = [...head, ...tail];
  // An IPv4 tail counts as two groups, and only as the last group.
  const ipv4Index = all.findIndex((part) => part.includes('.'));
  if (ipv4Index !== -1 && ipv4Index !== all.length - 1) return false;
  const count = all.length + (ipv4Index === -1 ? 0 : 1);
  return halves.length === 2 ? count <= 7 : count === 8;
}

function isIpv4(value: string, budget: WorkBudget): boolean {
  return value.length <= 15 && matches('ipv4', value, budget);
}

function isEmail(value: string, budget: WorkBudget): boolean {
  const at = value.lastIndexOf('@');
  if (at <= 0) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > MAX_LOCAL_PART_LENGTH || !matches('localPart', local, budget)) return false;
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const address = domain.slice(1, -1);
    return /^IPv6:/i.test(address) ? isIpv6(address.slice(5), budget) : isIpv4(address, budget);
  }
  return isHostname(domain, budget);
}

/** An IP literal in a URI's authority (`[…]`) is checked as IPv6 unless it is an IPvFuture. */
function hasValidIpLiteral(value: string, budget: WorkBudget): boolean {
  const open = value.indexOf('[');
  if (open === -1) return true;
  const literal = value.slice(open + 1, value.indexOf(']', open));
  return /^[vV]/.test(literal) || isIpv6(literal, budget);
}

function isUri(value: string, budget: WorkBudget): boolean {
  return matches('uri', value, budget) && hasValidIpLiteral(value, budget);
}

function isUriReference(value: string, budget: WorkBudget): boolean {
  return (
    (matches('uri', value, budget) || matches('relativeReference', value, budget)) &&
    hasValidIpLiteral(value, budget)
  );
}

/** Not a JSON Schema format, but one schemas use: an absolute http(s) or ftp URI with a host. */
function isUrl(value: string, budget: WorkBudget): boolean {
  return /^(?:https?|ftp):\/\/[^/?#@[\]:]/i.test(value.slice(0, 16)) && isUri(value, budget);
}

function isRegex(value: string, budget: WorkBudget): boolean {
  budget.spend(value.length);
  try {
    // Only parsed, never run.
    new RegExp(value, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Each asserted format and its check. */
export const FORMAT_CHECKS: Readonly<Record<string, FormatCheck>> = {
  date: isDate,
  time: isTime,
  'date-time': isDateTime,
  duration: (value, budget) => matches('duration', value, budget),
  uri: isUri,
  'uri-reference': isUriReference,
  'uri-template': (value, budget) => matches('uriTemplate', value, budget),
  url: isUrl,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: (value, budget) => isIpv6(value, budget),
  uuid: (value, budget) => value.length === 36 && matches('uuid', value, budget),
  regex: isRegex,
  'json-pointer': (value, budget) => matches('jsonPointer', value, budget),
  'relative-json-pointer': (value, budget) => matches('relativeJsonPointer', value, budget),
};

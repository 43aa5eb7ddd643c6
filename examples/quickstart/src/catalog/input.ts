import type { ToolInput } from './types';

/** Reads a string input, falling back when it is missing or not a string. */
export const s = (input: ToolInput, key: string, fallback = ''): string => {
  const value = input[key];
  return typeof value === 'string' && value.length > 0 ? value : fallback;
};

/** Reads a numeric input, falling back when it is missing or not a finite number. */
export const n = (input: ToolInput, key: string, fallback = 0): number => {
  const value = input[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
};

/** Reads a boolean input. */
export const b = (input: ToolInput, key: string, fallback = false): boolean => {
  const value = input[key];
  return typeof value === 'boolean' ? value : fallback;
};

/** Reads an array input of strings, ignoring non-string entries. */
export const strings = (input: ToolInput, key: string): string[] => {
  const value = input[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/** Reads an array input of plain objects. */
export const records = (input: ToolInput, key: string): ToolInput[] => {
  const value = input[key];
  return Array.isArray(value)
    ? value.filter((v): v is ToolInput => typeof v === 'object' && v !== null && !Array.isArray(v))
    : [];
};

/** Reads a nested object input. */
export const record = (input: ToolInput, key: string): ToolInput => {
  const value = input[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as ToolInput)
    : {};
};

/** A small deterministic, non-negative hash of a string (FNV-1a, 32-bit). */
export const hash = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

/** A deterministic integer in [min, max] derived from `seed`. */
export const pick = (seed: string, min: number, max: number): number =>
  min + (hash(seed) % (max - min + 1));

/** A deterministic element of `values` derived from `seed`. */
export const choose = <T>(seed: string, values: readonly [T, ...T[]]): T =>
  values[hash(seed) % values.length] ?? values[0];

/** A short deterministic identifier such as `msg_3f9a21c0`. */
export const fakeId = (prefix: string, seed: string): string =>
  `${prefix}_${hash(seed).toString(16).padStart(8, '0')}`;

/** Clamps an integer input into a range. */
export const clamp = (value: number, min: number, max: number): number =>
  Math.min(max, Math.max(min, Math.trunc(value)));

/** Turns free text into a URL-friendly slug. */
export const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'item';

/** A fixed reference timestamp so results never depend on the wall clock. */
export const FIXED_ISO = '2024-03-01T09:00:00.000Z';

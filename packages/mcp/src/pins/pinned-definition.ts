import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from '../upstream/manifest-cache';

/**
 * The parts of an upstream tool's definition that are pinned: what the model reads (name, title,
 * description, annotations) and what it is asked to send (the input schema). The title is in
 * because search shows it when a tool has no description. `_meta`, the output schema and
 * execution hints are not: a change there does not change what the model is told to do.
 */
export interface PinnedFields {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** The pinned parts of a tool definition, absent ones left out. */
export function pinnedFieldsOf(tool: Tool): PinnedFields {
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.description !== undefined && { description: tool.description }),
    ...(tool.inputSchema !== undefined && { inputSchema: tool.inputSchema }),
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
  };
}

/**
 * The hash a definition is pinned by: SHA-256 (hex) of the canonical JSON of its pinned parts,
 * object keys sorted, so a server that sends the same definition with its keys in another order
 * is not taken for one that changed it.
 */
export function definitionHash(fields: PinnedFields): string {
  return createHash('sha256').update(canonicalJson(fields)).digest('hex');
}

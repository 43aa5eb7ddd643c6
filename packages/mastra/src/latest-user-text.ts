/** The text of the user's latest message, from the step's messages or its message list. */
export function latestUserText(args: { messages?: unknown; messageList?: unknown }): string {
  let messages: unknown = args.messages;
  if (!Array.isArray(messages)) {
    try {
      messages = (
        args.messageList as { get?: { all?: { db?: () => unknown } } } | undefined
      )?.get?.all?.db?.();
    } catch {
      messages = undefined;
    }
  }
  if (!Array.isArray(messages)) return '';
  for (let position = messages.length - 1; position >= 0; position--) {
    const message = messages[position] as { role?: unknown; content?: unknown } | undefined;
    if (message?.role === 'user') return textOf(message.content);
  }
  return '';
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  const fields = content as { parts?: unknown; content?: unknown } | undefined;
  if (Array.isArray(fields?.parts)) {
    const texts = fields.parts
      .filter((part) => part?.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string);
    if (texts.length > 0) return texts.join('\n');
  }
  if (Array.isArray(content))
    return content
      .filter((part) => part?.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('\n');
  return typeof fields?.content === 'string' ? fields.content : '';
}

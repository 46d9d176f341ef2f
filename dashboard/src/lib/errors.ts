// The reason of a failure, for the error lines that show it ("Could not save: {reason}").

/** A readable message from anything thrown (Error, PostgREST error object, string). */
export function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (cause && typeof cause === 'object' && 'message' in cause) return String(cause.message);
  return String(cause);
}

/**
 * A function that says a failure in the reader's language when its message is one of a set of
 * shared server messages (`{ key: 'English text' }`, e.g. PLAN_MESSAGES), through the texts
 * under `prefix` with the same keys; anything else (a network failure, a provider's own text) is
 * shown as it came.
 */
export function sharedMessageReason(messages: Readonly<Record<string, string>>, prefix: string) {
  const keys = new Map(Object.entries(messages).map(([key, text]) => [text, key]));
  return (t: (key: string) => string, cause: unknown): string => {
    const message = messageOf(cause);
    const key = keys.get(message);
    return key ? t(`${prefix}.${key}`) : message;
  };
}

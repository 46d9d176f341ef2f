// The reason of a failure, for the error lines that show it ("Could not save: {reason}").

/** A readable message from anything thrown (Error, PostgREST error object, string). */
export function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (cause && typeof cause === 'object' && 'message' in cause) return String(cause.message);
  return String(cause);
}

import * as v from 'valibot';

/** Error body of the reference service (docs/service.md, Error responses). */
export const ErrorBodySchema = v.object({
  error: v.object({
    status: v.number(),
    code: v.string(),
    message: v.string(),
  }),
  /** The same text at the top level (what the real service's SDK reads). */
  message: v.string(),
});
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

/**
 * The real service's error body is unknown: read `error.message`, then `message`, then `error`
 * (a string), in that order; undefined when none is there (the caller falls back to the status text).
 */
export function errorMessageOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const err = b['error'];
  if (typeof err === 'object' && err !== null) {
    const m = (err as Record<string, unknown>)['message'];
    if (typeof m === 'string' && m.length > 0) return m;
  }
  if (typeof b['message'] === 'string' && b['message'].length > 0) return b['message'];
  if (typeof err === 'string' && err.length > 0) return err;
  return undefined;
}

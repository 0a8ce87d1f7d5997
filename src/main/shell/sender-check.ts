import { isOwnPage } from './navigation';

/**
 * Only the app's own page may talk to main (VS Code's validatedIpcMain): the sender must be a
 * main frame (no iframe) whose origin is one of ours (app://tidewatch, or the dev server).
 */
export interface FrameLike {
  url: string;
  parent: unknown;
}

export function isTrustedSender(frame: FrameLike | null | undefined, allowedOrigins: readonly string[]): boolean {
  if (!frame || frame.parent !== null) return false;
  return isOwnPage(frame.url, allowedOrigins);
}

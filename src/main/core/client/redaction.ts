import { redact } from './errors';

/** Whoever holds secrets a line must never show: the client's keys, the alert channels' tokens. */
export interface SecretHolder {
  secrets(): ReadonlyArray<string | null | undefined>;
}

/**
 * The one redaction of a run (errors.ts `redact`): an api-key parameter in a URL, and every secret
 * of the holders added as the services that hold them are built, in one pass. Before any is added
 * it redacts what needs no secret to find.
 */
export class Redaction {
  private readonly holders: SecretHolder[] = [];

  add(holder: SecretHolder): void {
    this.holders.push(holder);
  }

  redact(text: string): string {
    return redact(text, ...this.holders.flatMap((h) => h.secrets()));
  }
}

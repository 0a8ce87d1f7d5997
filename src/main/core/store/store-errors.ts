/**
 * What a failed write to the store means for the user, in plain words, from SQLite's error code
 * (better-sqlite3's SqliteError carries it) or Node's for file errors.
 */
export function describeStoreError(err: unknown): string {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'cannot write to the store: disk full';
  if (
    code === 'SQLITE_READONLY' ||
    code.startsWith('SQLITE_READONLY') ||
    code === 'EROFS' ||
    code === 'EACCES' ||
    code === 'EPERM'
  ) {
    return 'cannot write to the store: the file or its folder is read-only';
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO')
    return 'cannot write to the store: the disk reported an I/O error';
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB')
    return 'cannot write to the store: the file is damaged (run `tidewatch doctor`)';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
    return 'cannot write to the store: another program holds it locked';
  const message = (err as Error | null)?.message ?? String(err);
  return `cannot write to the store: ${message.slice(0, 200)}`;
}

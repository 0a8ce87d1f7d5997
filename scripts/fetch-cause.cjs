// Preloaded into Electron's installer by scripts/desktop.mjs: a failed download then says why
// (ENOTFOUND, ECONNREFUSED, a certificate error…), which "fetch failed" alone does not.
const original = globalThis.fetch;
globalThis.fetch = async (...args) => {
  try {
    return await original(...args);
  } catch (err) {
    const cause = err && err.cause;
    const code = cause && (cause.code || cause.message);
    if (!code) throw err;
    const host = cause.hostname ? ` ${cause.hostname}` : '';
    throw new Error(`${err.message}: ${code}${host}`, { cause: err });
  }
};

/**
 * A wallet address or object id as the user typed it: 0x and 1 to 64 hex digits, a short form
 * expanded as the chain reads it (0x2 is 0x00…02). The same rule as the contract, checked here
 * first so a typo gets a plain sentence instead of a refused request.
 */
export function parseAddress(text: string, what = 'wallet address'): { address: string } | { error: string } {
  const t = text.trim();
  if (t === '') return { error: `Enter a ${what}.` };
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(t)) {
    const hint = /^[0-9a-fA-F]{64}$/.test(t) ? ' It needs the 0x in front.' : t.length > 66 ? ' It is too long.' : '';
    return {
      error: `"${t.length > 24 ? `${t.slice(0, 24)}…` : t}" is not a ${what}: a ${what} is 0x followed by up to 64 hexadecimal digits (0-9, a-f).${hint}`,
    };
  }
  return { address: `0x${t.slice(2).toLowerCase().padStart(64, '0')}` };
}

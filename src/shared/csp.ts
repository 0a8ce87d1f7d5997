/**
 * The renderer's Content-Security-Policy, in one place for both shells (the web shell's answers,
 * the desktop's app:// protocol) and the page's own meta tag (a test keeps them equal): its own
 * code and styles only, no inline script or style, NFT images over https, nothing framed.
 */
export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

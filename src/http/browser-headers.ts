/**
 * Headers for answers to browsers (`User-Agent` starting with `Mozilla`, docs/reference/http.md#browser-headers),
 * errors included.
 *
 * The Content-Security-Policy is the original's (InvocationHelper): scripts only from the server
 * itself, never inline or eval'd. Everything but the two applications grid serves as pages (the web
 * console and Swagger UI) also gets `sandbox`: an answer of the API opened in a browser (an entry
 * stored as XHTML or SVG through `application/xml`, say) is then a document of no origin, which can
 * run nothing and submit nothing with the user's credentials. API clients and `fetch` ignore it.
 */
const PAGE_POLICY =
  "default-src 'self' data:; style-src 'self' 'unsafe-inline'; base-uri 'self'; form-action 'self'; frame-src 'self'; frame-ancestors 'self'; object-src 'none'";
const API_POLICY = `${PAGE_POLICY}; sandbox`;

const COMMON = { 'X-Frame-Options': 'sameorigin', 'X-XSS-Protection': '1; mode=block', 'X-Content-Type-Options': 'nosniff' };
const PAGE = { ...COMMON, 'Content-Security-Policy': PAGE_POLICY };
const API = { ...COMMON, 'Content-Security-Policy': API_POLICY };
/** Over TLS only: browsers ignore it over plain HTTP (RFC 6797 §8.1). */
const TLS = { 'Strict-Transport-Security': 'max-age=31536000 ; includeSubDomains' };
const PAGE_TLS = { ...PAGE, ...TLS };
const API_TLS = { ...API, ...TLS };

/** The applications served as pages; their own scripts must run. */
function isPage(path: string): boolean {
  return path === '/console' || path.startsWith('/console/') || path === '/swagger-ui' || path.startsWith('/swagger-ui/');
}

export function browserHeaders(path: string, secure: boolean): Readonly<Record<string, string>> {
  if (isPage(path)) return secure ? PAGE_TLS : PAGE;
  return secure ? API_TLS : API;
}

// The site URL: what WordPress keeps in its `home` and `siteurl` options, and what every link of an answer is built on.

/** Checks a site URL and gives its canonical form (`http://host:port`), or throws naming what was expected. */
export function siteUrlOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`siteUrl: expected an absolute http(s) URL such as http://127.0.0.1:4010, got ${JSON.stringify(raw)}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    throw new TypeError(`siteUrl: expected http(s)://host[:port] with no path, query or credentials, got ${JSON.stringify(raw)}`);
  }
  return url.origin;
}

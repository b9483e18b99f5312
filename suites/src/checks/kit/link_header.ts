// The Link header as WordPress writes it (WP_REST_Response::link_header(): `<url>; rel="rel"` and more attributes,
// `title` quoted, others verbatim), one or more link-values joined with commas (RFC 8288). The server sends the API
// root's `<{api_root}/>; rel="https://api.w.org/"` first, and a response's own Link replaces it (header() with replace).

/** One link-value: its target, its rels and its other attributes (names lower-cased, quotes taken off). */
interface LinkValue {
  url: string;
  rels: string[];
  attributes: Record<string, string>;
}

export function linkValues(value: string | undefined): LinkValue[] {
  const out: LinkValue[] = [];
  if (!value) return out;
  for (const m of value.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const attributes: Record<string, string> = {};
    for (const a of (m[2] ?? '').matchAll(/;\s*([^=;,\s]+)\s*(?:=\s*("[^"]*"|[^;,]*))?/g)) attributes[a[1]!.toLowerCase()] = (a[2] ?? '').trim().replace(/^"|"$/g, '');
    out.push({ url: m[1]!, rels: (attributes['rel'] ?? '').split(/\s+/).filter(Boolean).map((r) => r.toLowerCase()), attributes });
  }
  return out;
}

/** `<https://x/wp-json/a?page=2>; rel="next", <...>; rel="prev"` → {next: 'https://...', prev: ...} */
export function parseLink(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of linkValues(value)) for (const r of v.rels) out[r] = v.url;
  return out;
}

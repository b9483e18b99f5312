// `oembed/1.0`: embed discovery for the site's own event pages, as WordPress core answers it (samples 84-92):
// `type: rich`, width 600 / height 338 by default, `maxwidth` honoured (at least 200), XML for `format=xml`,
// 404 `oembed_invalid_url` for anything that is not one of the site's published events. The proxy answers the same
// for local URLs; it cannot fetch other sites, so those are 404 too.
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { err, int, str } from './util.ts';
import { renderTitle } from '../../../../contracts/wordpress/content/post-text.ts';
import { WP_EMBED_MIN_JS } from './wp-embed-script.ts';
import { isPlainObject } from '../../../../contracts/wordpress/plain-object.ts';

/** esc_attr() / esc_html(): `&` that starts no entity, `<`, `>`, both quotes; existing entities stay. */
function escAttr(s: string): string {
  return s
    .replace(/&(?!#[0-9]+;|#x[0-9a-f]+;|[a-z][a-z0-9]*;)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * _oembed_create_xml(): addChild( $key, esc_html( $value ) ) lets libxml read the entities, and asXML() writes `&`,
 * `<`, `>` escaped and, with no encoding declared, every non-ASCII character as `&#xHEX;` (so &#8220; becomes
 * &#x201C;, as a live WordPress 6.1.9 answers).
 */
function xmlText(value: string): string {
  const decoded = escAttr(value).replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    if (e[0] !== '#') return XML_ENTITIES[e.toLowerCase()] ?? m;
    const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
  let out = '';
  for (const ch of decoded.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')) {
    const cp = ch.codePointAt(0)!;
    out += cp > 0x7f ? `&#x${cp.toString(16).toUpperCase()};` : cp === 13 ? '&#13;' : ch;
  }
  return out;
}

/** PHP's string value of a scalar as esc_html() receives it: true is "1", false and null are "". */
function phpString(v: unknown): string {
  return v === true ? '1' : v === false || v === null || v === undefined ? '' : String(v);
}

/** _oembed_create_xml(): arrays as nested elements, list items named `oembed`, scalars through esc_html(). */
function oembedXml(data: Record<string, unknown>): string {
  const nodes = (v: object): string =>
    Object.entries(v)
      .map(([k, x]) => {
        const key = /^\d+$/.test(k) ? 'oembed' : k;
        if (x !== null && typeof x === 'object') {
          const inner = nodes(x);
          return inner === '' ? `<${key}/>` : `<${key}>${inner}</${key}>`;
        }
        return `<${key}>${xmlText(phpString(x))}</${key}>`;
      })
      .join('');
  return `<?xml version="1.0"?>\n<oembed>${nodes(data)}</oembed>\n`;
}

const OEMBED_XML = (data: Record<string, unknown>): { contentType: string; text: string } => ({ contentType: 'text/xml; charset=UTF-8', text: oembedXml(data) });

/**
 * _oembed_rest_pre_serve_request(): an answer of the embed route (its row says `xmlErrors`) to a request that asked
 * for format=xml is served as XML whatever it answered, an error too
 * (`<oembed><code>…</code><message>…</message><data><status>404</status></data></oembed>`, as a live WordPress 6.1.9
 * answers); undefined for any other request.
 */
export function oembedXmlAnswer(query: Record<string, unknown>, data: unknown): { contentType: string; text: string } | undefined {
  if (query['format'] !== 'xml') return undefined;
  return isPlainObject(data) ? OEMBED_XML(data) : undefined;
}

/**
 * get_oembed_response_data_for_url() behind both routes. Only the embed route answers format=xml as XML:
 * _oembed_rest_pre_serve_request() looks at the embed route alone, so the proxy answers JSON whatever `format`
 * says (a real WordPress 6.1 does; the suite's content_type check holds the mock to it).
 */
export const oembedHandler = (servesXml: boolean) => (ctx: HandlerCtx): Reply => {
  const url = str(ctx.params.url) ?? '';
  const m = /^https?:\/\/([^/]+)(\/(?:(en|uk)\/)?event\/([^/?#]+)\/?)(?:[?#].*)?$/.exec(url);
  const home = new URL(ctx.links.home);
  const notFound = () => err('oembed_invalid_url', 'Not Found', 404);
  if (!m || m[1] !== home.host) return notFound();
  const lang = (m[3] as 'en' | 'uk' | undefined) ?? ctx.store.get('calendarSettings').default_lang;
  const event = ctx.store.bySlug('event', m[4]!, lang);
  if (!event || event.status !== 'publish') return notFound();
  const maxwidth = int(ctx.params.maxwidth) ?? 600;
  const width = Math.max(200, Math.min(600, maxwidth));
  const height = Math.ceil((width / 16) * 9);
  const author = ctx.store.table('users').get(event.author);
  const link = `${ctx.links.home}${m[2]}`;
  const secret = ctx.rng.hex(10);
  const site = 'City Events';
  // get_post_embed_html(): the title as get_the_title() prints it (wptexturize and all), the iframe's title
  // attribute through esc_attr(), then wp-embed.min.js inlined by wp_get_inline_script_tag().
  const title = renderTitle(event.title, event.status);
  const html =
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${link}">${title}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${link}embed/#?secret=${secret}" width="${width}" height="${height}" title="${escAttr(`&#8220;${title}&#8221; &#8212; ${site}`)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>` +
    `<script>\n${WP_EMBED_MIN_JS}\n</script>\n`;
  const data = {
    version: '1.0',
    provider_name: site,
    provider_url: ctx.links.home,
    author_name: author?.name ?? 'admin',
    author_url: `${ctx.links.home}/author/${author?.username ?? 'admin'}/`,
    title,
    type: 'rich',
    width,
    height,
    html,
    ...(event.image ? { thumbnail_url: event.image, thumbnail_width: 1200, thumbnail_height: 800 } : {}),
  };
  if (servesXml && ctx.params.format === 'xml') return ok(null, 200, { raw: OEMBED_XML(data) });
  return ok(data);
};

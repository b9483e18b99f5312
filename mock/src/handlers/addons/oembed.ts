// `oembed/1.0`: embed discovery for the site's own event pages, as WordPress core answers it (samples 84-92):
// `type: rich`, width 600 / height 338 by default, `maxwidth` honoured (at least 200), XML for `format=xml`,
// 404 `oembed_invalid_url` for anything that is not one of the site's published events. The proxy answers the same
// for local URLs; it cannot fetch other sites, so those are 404 too.
import { ok, type HandlerCtx, type Reply } from '../context.ts';
import { err, int, str } from './util.ts';

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function oembedHandler(ctx: HandlerCtx): Reply {
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
  const html =
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${link}">${escapeXml(event.title)}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${link}embed/#?secret=${secret}" width="${width}" height="${height}" title="${escapeAttr(`“${event.title}” — ${site}`)}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`;
  const data = {
    version: '1.0',
    provider_name: site,
    provider_url: ctx.links.home,
    author_name: author?.name ?? 'admin',
    author_url: `${ctx.links.home}/author/${author?.username ?? 'admin'}/`,
    title: event.title,
    type: 'rich',
    width,
    height,
    html,
    ...(event.image ? { thumbnail_url: event.image, thumbnail_width: 1200, thumbnail_height: 800 } : {}),
  };
  if (ctx.params.format === 'xml') {
    const body = Object.entries(data).map(([k, v]) => `<${k}>${escapeXml(String(v))}</${k}>`).join('');
    return ok(null, 200, { raw: { contentType: 'text/xml; charset=UTF-8', text: `<?xml version="1.0"?>\n<oembed>${body}</oembed>\n` } });
  }
  return ok(data);
}

// Records how a live WordPress renders post texts, for contracts/wordpress/content/post-text.test.ts (which must not need one).
// Each input is written as a post's title, content and excerpt through wp/v2/posts, read back in the edit context
// and deleted for good. Run against .ci/wordpress/setup.sh's site:
//
//   set -a; . /tmp/site-contracts-wp/creds.env; set +a
//   WP_AUTH="$WP_USER:$WP_APP_PASSWORD" npx tsx mock/test/record-wordpress-rendering.ts
//
// The inputs: hand-picked cases, the fixtures' own event contents (so empty excerpts are generated from them),
// and strings drawn (seeded) from tokens that exercise every rule of wptexturize() and wpautop().
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const base = (process.env.WP_BASE_URL ?? 'http://127.0.0.1:8089').replace(/\/+$/, '');
const auth = process.env.WP_AUTH;
if (!auth) {
  process.stderr.write('WP_AUTH (user:application-password) is required\n');
  process.exit(2);
}
const headers = { authorization: `Basic ${Buffer.from(auth).toString('base64')}`, 'content-type': 'application/json' };
const out = fileURLToPath(new URL('../../contracts/wordpress/content/post-text.recorded.json', import.meta.url));

/** mulberry32: the same inputs on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function draw(tokens: readonly string[], count: number, seed: number): string[] {
  const r = rng(seed);
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(r() * 10) }, () => tokens[Math.floor(r() * tokens.length)]!).join(''));
}

const TEXTURIZE_TOKENS = ["'", '"', '-', '--', '---', '...', ' ', ' ', 'a', 'word', '9', '99', '0', 'x', '5x5', '&', '&amp;', '&#038;', '&nbsp;', '(', ')', '[', ']', '<b>', '</b>', '<code>', '</code>', '<!-- c -->', 'Wordpress', ' (tm)', '``', "''", '.', ',', '!', '?', ';', ':', "п'ять", '\u00a0', '\n', 'xn--', '<a href="q?a=1&b=2">', '</a>', '<pre>', '</pre>', "'tis", '&lt;', '&gt;', '%', "O'Neil", "'90s", "'0.5'", '"42"'];
const AUTOP_TOKENS = ['Para one.', 'Second line', '\n', '\n\n', '\r\n', '  ', '<br>', '<br/>', '<br />', '<div>', '</div>', '<ul>', '<li>item', '</li>', '</ul>', '<blockquote>', '</blockquote>', '<h2>Head</h2>', '<p>', '</p>', '<pre>', '</pre>', '<hr>', '<script>var a=1;\nb()</script>', '<em>em</em>', '<a href="x">l</a>', "it's", '"q"', '--', '&', '\u00a0', 'word ', 'Wordpress', '<table><tr><td>c</td></tr></table>', '<!-- c -->', '<figure><img src="i.png" width="4" height="3"><figcaption>cap</figcaption></figure>', '<option>o</option>', "п'ять"];

const fixtures = JSON.parse(readFileSync(fileURLToPath(new URL('../../fixtures/calendar.json', import.meta.url)), 'utf8')) as { events: { title: string; content: string; excerpt: string }[] };
const inputs: { title: string; content: string; excerpt: string }[] = [
  ...fixtures.events.filter((e) => e.excerpt === '').slice(0, 12).map((e) => ({ title: e.title, content: e.content, excerpt: '' })),
  { title: 'Long', content: Array.from({ length: 70 }, (_, i) => `word${i}`).join(' '), excerpt: '' },
  { title: 'Long blocks', content: `<!-- wp:paragraph -->\n<p>${Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ')}</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:image -->\n<figure class="wp-block-image"><img src="a.png" width="10" height="20"/></figure>\n<!-- /wp:image -->`, excerpt: '' },
  { title: 'Images', content: '<img src="a.png" width="10" height="20"> and <img src="b.png"> <img decoding="sync" src="c.png" width="1" height="1">', excerpt: 'e' },
  { title: 'Separator', content: "It's <!-- wp:separator /-->\n\n<!-- wp:paragraph -->\n<p>\"Quote\"</p>\n<!-- /wp:paragraph -->\n", excerpt: '' },
  ...draw(TEXTURIZE_TOKENS, 200, 7).map((s) => ({ title: s, content: s, excerpt: s })),
  ...draw(AUTOP_TOKENS, 150, 11).map((s) => ({ title: 'autop', content: s, excerpt: s })),
];

const recorded: unknown[] = [];
for (const input of inputs) {
  const res = await fetch(`${base}/wp-json/wp/v2/posts?context=edit`, { method: 'POST', headers, body: JSON.stringify({ ...input, status: 'publish' }) });
  const post = (await res.json()) as { id: number; title: { raw: string; rendered: string }; content: { rendered: string }; excerpt: { rendered: string } };
  if (typeof post.id !== 'number') throw new Error(`WordPress refused ${JSON.stringify(input)}: ${JSON.stringify(post)}`);
  recorded.push({ input, rawTitle: post.title.raw, title: post.title.rendered, content: post.content.rendered, excerpt: post.excerpt.rendered });
  await fetch(`${base}/wp-json/wp/v2/posts/${post.id}?force=true`, { method: 'DELETE', headers });
}
const version = ((await (await fetch(`${base}/wp-json/`)).json()) as { name: string }).name;
writeFileSync(out, `${JSON.stringify({ recordedFrom: `WordPress 6.1 at ${base} (${version})`, recordedAt: new Date().toISOString().slice(0, 10), cases: recorded }, null, 1)}\n`);
process.stdout.write(`recorded ${recorded.length} cases into ${out}\n`);

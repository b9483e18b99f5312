// What WordPress 6.1.9 on PHP 8.2.36 answered for integer query values with odd spacing, recorded from the reference
// site (`GET /wp-json/wp/v2/posts?per_page=<value>` and `?categories=<value>`), not computed: is_numeric() takes
// " \t\n\r\v\f" before and (PHP 8) after the number, and wp_parse_list() splits on those and commas; U+00A0, U+2003
// and NUL are none of them.

/** `per_page=<raw>` (raw as it stands in the query string) and WordPress's status. */
export const PER_PAGE_SPELLINGS: readonly (readonly [raw: string, status: 200 | 400])[] = [
  ['5', 200],
  ['%C2%A05', 400],
  ['5%C2%A0', 400],
  ['%E2%80%835', 400],
  ['%205', 200],
  ['5%20', 200],
  ['+5', 200],
  ['%2B5', 200],
  ['%0B5', 200],
  ['5%0B', 200],
  ['%0C5', 200],
  ['%095%09', 200],
  ['%0A5%0A', 200],
  ['%0D5', 200],
  ['%005', 400],
  ['5%00', 400],
  ['5.', 200],
  ['.5e1', 200],
  ['5e0', 200],
  ['1e1', 200],
  ['0x5', 400],
];

/** `categories=<raw>` (a list of term IDs) and WordPress's status. */
export const ID_LIST_SPELLINGS: readonly (readonly [raw: string, status: 200 | 400])[] = [
  ['1,2', 200],
  ['1%202', 200],
  ['1%0B2', 200],
  ['1%0C2', 200],
  ['1%C2%A02', 400],
];

// What WordPress 6.1 stores of the text a client writes, by its default filters (wp-includes/default-filters.php,
// kses.php): sanitize_post( …, 'db' ) runs the `*_save_pre` filters of a post's title, content and excerpt in
// wp_insert_post(), sanitize_term( …, 'db' ) the `pre_term_*` filters of a term's name and description in
// wp_insert_term() and wp_update_term(). The mock stores through these, and the suite predicts what it reads back with
// them: one copy of each rule. Checked against a live WordPress 6.1.9 (save-filters.test.ts holds the recorded pairs).
import { convertInvalidEntities, wpSpecialchars } from './entities.ts';
import { wpFilterKses, wpFilterPostKses } from './kses.ts';
import { phpTrim } from './php/strings.ts';
import { sanitizeTextField } from './schema/formats.ts';

/**
 * Who is writing, as the filters see it: kses_init() adds the kses filters to posts for a user without
 * unfiltered_html (a single site's authors and contributors; its editors and administrators have it).
 */
export interface Writer {
  unfilteredHtml: boolean;
}

/**
 * title_save_pre: trim (default-filters.php), then, for a writer without unfiltered_html, wp_filter_kses (the `data`
 * tags: a, abbr, acronym, b, blockquote, cite, code, del, em, i, q, s, strike, strong).
 */
export function postTitleForDb(title: string, writer: Writer): string {
  const trimmed = phpTrim(title);
  return writer.unfilteredHtml ? trimmed : wpFilterKses(trimmed);
}

/**
 * content_save_pre and excerpt_save_pre: convert_invalid_entities (`&#150;` → `&#8211;`); balanceTags only when the
 * site's use_balanceTags option is on (off by default, not set by the REST API). For a writer without unfiltered_html,
 * then wp_filter_post_kses (kses_init_filters() adds it after the default filters, at the same priority): undefined
 * where that is not predicted (wpFilterPostKses()).
 */
export function postTextForDb(text: string, writer: Writer): string | undefined {
  const converted = convertInvalidEntities(text);
  return writer.unfilteredHtml ? converted : wpFilterPostKses(converted);
}

/**
 * pre_term_name for every user: sanitize_text_field, wp_filter_kses (priority 10, in that order), then _wp_specialchars
 * (priority 30). `a & b <i>x</i>` is stored `a &amp; b x`.
 */
export function termNameForDb(name: string): string {
  return wpSpecialchars(wpFilterKses(sanitizeTextField(name)));
}

/** pre_term_description for every user: wp_filter_kses. Spaces at its ends stay. */
export function termDescriptionForDb(description: string): string {
  return wpFilterKses(description);
}

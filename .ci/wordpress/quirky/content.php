<?php
/**
 * Sample content of the quirky CI site: the calendar site's sample calendar (calendar/content.php, copied beside
 * this file by setup.sh), an unused category and tag, and the post-format terms.
 *
 * Those terms are WordPress's own bookkeeping: the first record written with a format (`format=aside`) makes
 * `post-format-aside` in the post_format taxonomy, and it stays when the record is deleted; no REST route removes
 * it. A site whose authors have used formats has them all; creating them here keeps the stage's count of terms
 * about what the suite leaves, not about which formats it happened to try first.
 */

defined( 'ABSPATH' ) || exit;

require __DIR__ . '/../calendar/content.php';

// A category and a tag no event uses yet, as any real calendar has: a list with hide_empty (000 §4.1.3: default
// true) answers differently from one without.
sc_cal_seed_term( 'cal_events_cat', 'Film Screenings' );
sc_cal_seed_term( 'post_tag', 'indoor' );

foreach ( array_keys( get_post_format_strings() ) as $sc_format ) {
	if ( 'standard' !== $sc_format && ! term_exists( "post-format-$sc_format", 'post_format' ) ) {
		$sc_term = wp_insert_term( "post-format-$sc_format", 'post_format' );
		if ( is_wp_error( $sc_term ) ) {
			fwrite( STDERR, "term post-format-$sc_format: " . $sc_term->get_error_message() . "\n" );
			exit( 1 );
		}
		fwrite( STDERR, "created post_format term post-format-$sc_format\n" );
	}
}

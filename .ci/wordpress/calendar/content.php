<?php
/**
 * Sample calendar of the calendar CI site: a handful of records, like a staging site, so that lists have
 * more than one page at small per_page values and references name records that exist.
 *
 * Included by setup.sh's install step (WordPress loaded, the administrator current). Records are written
 * through the plugin's own cal/v1 routes (rest_do_request), so they are stored exactly as the REST API
 * stores them; each is looked up by slug first, so a second run adds nothing.
 */

defined( 'ABSPATH' ) || exit;

function sc_cal_seed_term( $taxonomy, $name ) {
	$term = get_term_by( 'name', $name, $taxonomy );
	if ( $term ) {
		return $term->term_id;
	}
	$r = wp_insert_term( $name, $taxonomy );
	if ( is_wp_error( $r ) ) {
		fwrite( STDERR, "term $name: " . $r->get_error_message() . "\n" );
		exit( 1 );
	}
	return $r['term_id'];
}

function sc_cal_seed_record( $route, $type, $slug, $body ) {
	$found = get_posts( array( 'name' => $slug, 'post_type' => $type, 'post_status' => 'any', 'numberposts' => 1, 'fields' => 'ids' ) );
	if ( $found ) {
		return $found[0];
	}
	$request = new WP_REST_Request( 'POST', "/cal/v1/$route" );
	$request->set_header( 'Content-Type', 'application/json' );
	$request->set_body( wp_json_encode( array( 'slug' => $slug ) + $body ) );
	$response = rest_do_request( $request );
	if ( 201 !== $response->get_status() ) {
		fwrite( STDERR, "POST /cal/v1/$route $slug: " . $response->get_status() . ' ' . wp_json_encode( $response->get_data() ) . "\n" );
		exit( 1 );
	}
	fwrite( STDERR, "created $type $slug\n" );
	return $response->get_data()['id'];
}

$sc_cats = array();
foreach ( array( 'Concerts', 'Workshops', 'Exhibitions' ) as $sc_name ) {
	$sc_cats[] = sc_cal_seed_term( 'cal_events_cat', $sc_name );
}
$sc_tags = array();
foreach ( array( 'family', 'free entry', 'outdoor' ) as $sc_name ) {
	$sc_tags[] = sc_cal_seed_term( 'post_tag', $sc_name );
}

$sc_venues = array(
	sc_cal_seed_record( 'venues', 'cal_venue', 'old-library-arts-centre', array( 'title' => 'Old Library Arts Centre', 'address' => '1 Library Lane', 'city' => 'London', 'country' => 'United Kingdom', 'zip' => 'N1 1AA', 'phone' => '+44 20 7946 0000', 'website' => 'https://library.example.org/' ) ),
	sc_cal_seed_record( 'venues', 'cal_venue', 'river-hall', array( 'title' => 'River Hall', 'address' => 'Naberezhna 5', 'city' => 'Kyiv', 'country' => 'Ukraine', 'zip' => '04070', 'website' => 'https://riverhall.example.org/' ) ),
	sc_cal_seed_record( 'venues', 'cal_venue', 'city-park-stage', array( 'title' => 'City Park Stage', 'city' => 'Berlin', 'country' => 'Germany', 'state_province' => 'Berlin' ) ),
);
$sc_organizers = array(
	sc_cal_seed_record( 'organizers', 'cal_organizer', 'friends-of-the-library', array( 'title' => 'Friends of the Library', 'email' => 'friends@library.example.org', 'phone' => '+44 20 7946 0001', 'website' => 'https://friends.example.org/' ) ),
	sc_cal_seed_record( 'organizers', 'cal_organizer', 'kyiv-film-club', array( 'title' => 'Kyiv Film Club', 'email' => 'hello@filmclub.example.org' ) ),
	sc_cal_seed_record( 'organizers', 'cal_organizer', 'park-collective', array( 'title' => 'Park Collective', 'website' => 'https://park.example.org/' ) ),
);

// Twelve published events, from past to upcoming (the site's clock is late 2026), one featured, one draft.
$sc_titles = array( 'Curator’s Tour', 'Film Photography Basics', 'Spring Concert', 'Pottery for Beginners', 'Open-Air Cinema', 'Poetry Evening', 'Jazz in the Park', 'Printmaking Workshop', 'Winter Lights', 'New Year Concert', 'Book Fair', 'Sketching Walk' );
foreach ( $sc_titles as $sc_i => $sc_title ) {
	$sc_start = sprintf( '2026-%02d-%02d 18:00:00', 1 + $sc_i, 10 + $sc_i );
	sc_cal_seed_record(
		'events',
		'cal_event',
		sanitize_title( $sc_title ),
		array(
			'title'          => $sc_title,
			'content'        => "<p>$sc_title: a sample event of the calendar CI site.</p>",
			'start_date'     => $sc_start,
			'start_date_utc' => $sc_start,
			'end_date'       => substr( $sc_start, 0, 11 ) . '20:00:00',
			'end_date_utc'   => substr( $sc_start, 0, 11 ) . '20:00:00',
			'timezone'       => 'UTC',
			'duration'       => 7200,
			'cost'           => 0 === $sc_i % 3 ? 'Free' : '10 EUR',
			'featured'       => 2 === $sc_i,
			'venues'         => array( $sc_venues[ $sc_i % 3 ] ),
			'organizers'     => array( $sc_organizers[ $sc_i % 3 ] ),
			'cal_events_cat' => array( $sc_cats[ $sc_i % 3 ] ),
			'tags'           => array( $sc_tags[ $sc_i % 3 ] ),
		)
	);
}
sc_cal_seed_record( 'events', 'cal_event', 'unannounced-rehearsal', array( 'title' => 'Unannounced Rehearsal', 'status' => 'draft', 'start_date' => '2027-01-20 19:00:00', 'end_date' => '2027-01-20 21:00:00' ) );

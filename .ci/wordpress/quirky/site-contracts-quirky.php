<?php
/**
 * Plugin Name: site-contracts quirky calendar (its own REST controllers, as many plugins write them)
 * Description: The legacy cal/events/v1 routes (document 000 §2.1-2.4, §4.1) served by this plugin's own
 *              WP_REST_Controller subclasses, and cal/v1 served by a subclass of core's posts controller that
 *              answers some cases its own way. A second CI calendar target for the conformance suite.
 *
 * A must-use plugin of the quirky CI site only. It sits beside a copy of the calendar site's plugin
 * (site-contracts-calendar.php: post types, taxonomy, fields, cal/v1 query parameters), so both namespaces see
 * the same records, as they do in a real events plugin that serves a legacy and a current namespace.
 *
 * What it does differently from core, on purpose, each the way real plugins commonly do it (and each listed as
 * an accepted deviation in .ci/README.md when the suite reports it):
 * - its own error codes (`event-not-found`, `could-not-create-venue`, `cal-forbidden`...), not core's;
 * - legacy routes check an `{id}` or `{slug}` in a validate_callback: an unknown one is 400 rest_invalid_param
 *   (core's argument validation runs before any permission check or lookup);
 * - cal/v1 checks the capability on the ID before looking the record up: an unknown ID is 403;
 * - cal/v1 reads a trashed record as a bare 404 (body `null`, no error envelope);
 * - cal/v1 answers a DELETE without force with `[]` (core answers the trashed record);
 * - legacy `venue` takes one venue ID or the data of a new venue; a list of IDs is read as venue data and
 *   refused 400 `could-not-create-venue`; legacy `categories`/`tags` given by name create missing terms;
 * - legacy lists answer an object `{events|venues|organizers, rest_url, total, total_pages}`;
 * - a legacy event created with `hide_from_listings` true is saved, and the answer is 500 `event-listings-not-updated`
 *   without its ID (a hook after wp_insert_post() failing, as plugins answer then): the record stays.
 */

defined( 'ABSPATH' ) || exit;

const SC_QUIRKY_LEGACY_NS = 'cal/events/v1';

require __DIR__ . '/site-contracts-quirky/cal-v1.php';
require __DIR__ . '/site-contracts-quirky/legacy-posts.php';
require __DIR__ . '/site-contracts-quirky/legacy-types.php';
require __DIR__ . '/site-contracts-quirky/legacy-terms.php';

add_action(
	'rest_api_init',
	function () {
		( new SC_Quirky_Legacy_Events() )->register_routes();
		( new SC_Quirky_Legacy_Venues() )->register_routes();
		( new SC_Quirky_Legacy_Organizers() )->register_routes();
		( new SC_Quirky_Legacy_Terms( 'cal_events_cat', 'categories' ) )->register_routes();
		( new SC_Quirky_Legacy_Terms( 'post_tag', 'tags' ) )->register_routes();
		// GET /cal/events/v1/doc (000 §4.1): what it answers is not shown; a plugin commonly answers a
		// description of its routes.
		register_rest_route(
			SC_QUIRKY_LEGACY_NS,
			'/doc',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => function () {
					$server = rest_get_server();
					return array(
						'swagger' => '2.0',
						'info'    => array( 'title' => 'Calendar REST API', 'version' => '1.0' ),
						'paths'   => array_keys( $server->get_routes( SC_QUIRKY_LEGACY_NS ) ),
					);
				},
			)
		);
	},
	20
);

/**
 * `i18n_language` (en, uk) on every legacy route, as the documents' conventions give it; cal/v1 gets it from
 * the calendar plugin's own filter.
 */
add_filter(
	'rest_endpoints',
	function ( $endpoints ) {
		foreach ( $endpoints as $route => &$handlers ) {
			if ( 0 !== strpos( $route, '/' . SC_QUIRKY_LEGACY_NS ) ) {
				continue;
			}
			foreach ( $handlers as $i => &$handler ) {
				if ( is_int( $i ) ) {
					$handler['args']['i18n_language'] = array(
						'type'        => 'string',
						'enum'        => array( 'en', 'uk' ),
						'description' => 'Language of the request.',
					);
				}
			}
			unset( $handler );
		}
		unset( $handlers );
		return $endpoints;
	}
);

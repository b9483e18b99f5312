<?php
/**
 * Plugin Name: site-contracts calendar (cal/v1 on core's REST machinery)
 * Description: The documented cal/v1 routes (document 000 §2.5, §3, §4.2, §4.2.1, §4.2.2, §8) as custom post
 *              types served by WordPress's own WP_REST_Posts_Controller. A CI target for the conformance suite.
 *
 * A must-use plugin of the calendar CI site only (its WPMU_PLUGIN_DIR); the plain CI WordPress never loads it.
 * The point is that WordPress itself validates, coerces and answers: this file only declares post types,
 * taxonomies, field schemas and query parameters, and maps the documented list filters onto WP_Query. It
 * does no validation of its own. Where core's behaviour differs from the documents and a plugin built on
 * core would keep it, it is kept (and listed as an accepted deviation in .ci/README.md).
 */

defined( 'ABSPATH' ) || exit;

/** Post type => rest_base (the singular is its rewrite slug). Post type names stay under core's 20-character limit. */
const SC_CAL_TYPES = array(
	'cal_event'     => 'events',
	'cal_organizer' => 'organizers',
	'cal_venue'     => 'venues',
);
const SC_CAL_NS = 'cal/v1';

/** The status values of 000 §2.5 / §3 (core's list also has trash, auto-draft, inherit, any...). */
const SC_CAL_STATUSES = array( 'publish', 'pending', 'draft', 'future', 'private' );

/** `YYYY-MM-DD HH:MM:SS` (000 §2.5: digits only, single space), as a schema pattern core checks. */
const SC_CAL_LOCAL_DATE_TIME = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';

/**
 * The type-specific fields of 000 §2.5, as JSON schemas. Each is stored in post meta `_cal_<name>`; arrays
 * are stored one row per item so that meta queries can match them.
 */
function sc_cal_fields() {
	$ids      = array( 'type' => 'array', 'uniqueItems' => true, 'items' => array( 'type' => 'integer' ) );
	$local_dt = array( 'type' => 'string', 'pattern' => SC_CAL_LOCAL_DATE_TIME );
	$string   = array( 'type' => 'string' );
	$website  = array( 'type' => 'string', 'format' => 'uri' );
	return array(
		'cal_event'     => array(
			'start_date'     => $local_dt,
			'start_date_utc' => $local_dt,
			'end_date'       => $local_dt,
			'end_date_utc'   => $local_dt,
			'timezone'       => $string,
			'duration'       => array( 'type' => 'integer' ),
			'all_day'        => array( 'type' => 'boolean' ),
			'featured'       => array( 'type' => 'boolean' ),
			'cost'           => $string,
			'organizers'     => $ids,
			'venues'         => $ids,
		),
		'cal_organizer' => array(
			'phone'   => array( 'type' => 'string', 'format' => 'tel' ),
			'website' => $website,
			'email'   => array( 'type' => 'string', 'format' => 'email' ),
		),
		'cal_venue'     => array(
			'address'        => $string,
			'country'        => $string,
			'city'           => $string,
			'state_province' => $string,
			'state'          => $string,
			'province'       => $string,
			'zip'            => $string,
			'phone'          => $string,
			'website'        => $website,
		),
	);
}

add_action(
	'init',
	function () {
		foreach ( SC_CAL_TYPES as $type => $base ) {
			register_post_type(
				$type,
				array(
					'label'          => ucfirst( $base ),
					'public'         => true,
					'has_archive'    => $base,
					'rewrite'        => array( 'slug' => substr( $base, 0, -1 ) ),
					'show_in_rest'   => true,
					'rest_namespace' => SC_CAL_NS,
					'rest_base'      => $base,
					// Core's WP_REST_Posts_Controller (the default rest_controller_class) serves them; these
					// supports give the shared fields of 000 §2.5 (title, content, excerpt, author,
					// featured_media, comment_status, ping_status, format).
					'supports'       => array( 'title', 'editor', 'excerpt', 'author', 'thumbnail', 'comments', 'trackbacks', 'post-formats', 'custom-fields' ),
					'taxonomies'     => array( 'post_tag' ),
				)
			);
		}
		register_taxonomy(
			'cal_events_cat',
			'cal_event',
			array(
				'label'        => 'Event categories',
				'hierarchical' => true,
				'show_in_rest' => true,
				'rest_base'    => 'cal_events_cat',
			)
		);
		foreach ( sc_cal_fields() as $type => $fields ) {
			foreach ( $fields as $name => $schema ) {
				$meta = array(
					'type'   => 'integer',
					'single' => false,
				);
				if ( 'array' !== $schema['type'] ) {
					// What a record never given the field reads back as (get_post_meta() returns it). Only for
					// single values: a multi-value default would read back as a one-item list.
					$meta = array(
						'type'    => $schema['type'],
						'single'  => true,
						'default' => array( 'string' => '', 'integer' => 0, 'boolean' => false )[ $schema['type'] ],
					);
				}
				register_post_meta( $type, "_cal_$name", $meta );
			}
		}
	}
);

add_action(
	'rest_api_init',
	function () {
		foreach ( sc_cal_fields() as $type => $fields ) {
			foreach ( $fields as $name => $schema ) {
				register_rest_field(
					$type,
					$name,
					array(
						'schema'          => $schema + array( 'context' => array( 'view', 'edit' ) ),
						'get_callback'    => function ( $post ) use ( $name, $schema ) {
							$single = 'array' !== $schema['type'];
							return rest_sanitize_value_from_schema( get_post_meta( $post['id'], "_cal_$name", $single ), $schema );
						},
						// Core has validated and sanitized $value against the schema above before this runs.
						'update_callback' => function ( $value, $post ) use ( $name ) {
							$key = "_cal_$name";
							if ( ! is_array( $value ) ) {
								update_post_meta( $post->ID, $key, wp_slash( is_bool( $value ) ? (int) $value : $value ) );
								return true;
							}
							delete_post_meta( $post->ID, $key );
							foreach ( $value as $item ) {
								add_post_meta( $post->ID, $key, $item );
							}
							return true;
						},
					)
				);
			}
			// `sticky` (000 §2.5): core keeps it for the `post` type only. A schema-only field is enough: the
			// posts controller then sticks, unsticks and reads it itself (stick_post(), is_sticky()).
			$sticky = array(
				'type'    => 'boolean',
				'context' => array( 'view', 'edit' ),
			);
			if ( 'cal_event' !== $type ) {
				$sticky['default'] = false;   // none for events; false for organizers and venues
			}
			register_rest_field( $type, 'sticky', array( 'schema' => $sticky ) );
		}

		// GET /cal/v1/docs (000 §4.2): what it returns is not shown; this one answers the namespace's own
		// route data with each route's schema, as OPTIONS would.
		register_rest_route(
			SC_CAL_NS,
			'/docs',
			array(
				'methods'             => 'GET',
				'permission_callback' => '__return_true',
				'callback'            => function () {
					$server = rest_get_server();
					return $server->get_data_for_routes( $server->get_routes( SC_CAL_NS ), 'help' );
				},
			)
		);
	}
);

foreach ( array_keys( SC_CAL_TYPES ) as $sc_cal_type ) {
	// Documented defaults and unique term lists (000 §2.5) as schema keywords: create args get the defaults
	// and core applies them (core itself creates drafts and leaves term lists unchecked for duplicates).
	add_filter(
		"rest_{$sc_cal_type}_item_schema",
		function ( $schema ) {
			$defaults = array(
				'status'         => 'publish',
				'comment_status' => 'open',
				'ping_status'    => 'open',
				'format'         => 'standard',
			);
			foreach ( $defaults as $field => $default ) {
				$schema['properties'][ $field ]['default'] = $default;
			}
			foreach ( array( 'tags', 'cal_events_cat' ) as $field ) {
				if ( isset( $schema['properties'][ $field ] ) ) {
					$schema['properties'][ $field ]['uniqueItems'] = true;
				}
			}
			return $schema;
		}
	);
	add_filter( "rest_{$sc_cal_type}_collection_params", 'sc_cal_collection_params', 10, 2 );
	add_filter( "rest_{$sc_cal_type}_query", 'sc_cal_query', 10, 2 );
}

/**
 * The list parameters of 000 §4.2.1 (events) and §4.2.2 (organizers, venues), added to or replacing core's.
 * Core's other list parameters (include, exclude, offset, slug, after...) are left as they are.
 */
function sc_cal_collection_params( $params, $post_type ) {
	$ids  = array( 'type' => 'array', 'uniqueItems' => true, 'items' => array( 'type' => 'integer' ) );
	$bool = array( 'type' => 'boolean' );
	// Core's status list allows every registered status and "any", and checks it item by item in its
	// sanitize callback only; the documented five, checked as a whole list (uniqueItems) by core's own
	// validator first. The default stays core's string "publish": sanitize_post_statuses() compares each
	// item with it (===), so an array default would refuse an anonymous status=publish.
	$params['status']['items']['enum']    = SC_CAL_STATUSES;
	$params['status']['uniqueItems']      = true;
	$params['status']['validate_callback'] = 'rest_validate_request_arg';
	if ( 'cal_event' === $post_type->name ) {
		$date = array( 'type' => 'string', 'format' => 'date-time' );
		$params += array(
			'start_date'    => $date + array( 'description' => 'Events starting after the date.' ),
			'end_date'      => $date + array( 'description' => 'Events ending before the date.' ),
			'starts_before' => $date,
			'starts_after'  => $date,
			'ends_before'   => $date,
			'ends_after'    => $date,
			'categories'    => $ids,
			'venue'         => $ids,
			'organizer'     => $ids,
			'featured'      => $bool + array( 'description' => 'Featured only.' ),
			'post_parent'   => array( 'type' => 'integer' ),
			'ticketed'      => $bool,
		);
		$params['tags']    = $ids;   // core's also takes an {terms, operator} object; 000 §4.2.1 gives a list
		$params['orderby'] = array(
			'type'    => 'string',
			'default' => 'event_date',
			'enum'    => array( 'date', 'event_date', 'title', 'menu_order', 'modified' ),
		);
		$params['order']   = array(
			'type'    => 'string',
			'default' => 'ASC',
			'enum'    => array( 'ASC', 'DESC' ),
		);
	} else {
		$params += array(
			'event'              => array( 'type' => 'integer' ),
			'has_events'         => $bool,
			'only_with_upcoming' => $bool,
		);
	}
	return $params;
}

/** Maps the documented filters onto WP_Query arguments (core has already mapped its own). */
function sc_cal_query( $args, $request ) {
	$meta = array();
	if ( 'cal_event' === $args['post_type'] ) {
		$bounds = array(
			'start_date'    => array( '_cal_start_date', '>=' ),
			'end_date'      => array( '_cal_end_date', '<=' ),
			'starts_before' => array( '_cal_start_date', '<=' ),
			'starts_after'  => array( '_cal_start_date', '>=' ),
			'ends_before'   => array( '_cal_end_date', '<=' ),
			'ends_after'    => array( '_cal_end_date', '>=' ),
		);
		foreach ( $bounds as $param => list( $key, $compare ) ) {
			if ( isset( $request[ $param ] ) ) {
				// Stored dates are site-local; this site's time zone is UTC.
				$meta[] = array( 'key' => $key, 'value' => gmdate( 'Y-m-d H:i:s', rest_parse_date( $request[ $param ] ) ), 'compare' => $compare, 'type' => 'DATETIME' );
			}
		}
		foreach ( array( 'venue' => '_cal_venues', 'organizer' => '_cal_organizers' ) as $param => $key ) {
			if ( ! empty( $request[ $param ] ) ) {
				$meta[] = array( 'key' => $key, 'value' => $request[ $param ], 'compare' => 'IN' );
			}
		}
		if ( ! empty( $request['featured'] ) ) {
			$meta[] = array( 'key' => '_cal_featured', 'value' => '1' );
		}
		if ( isset( $request['ticketed'] ) ) {
			// This calendar sells no tickets: ticketed=true matches nothing, false everything.
			$meta[] = array( 'key' => '_cal_tickets', 'compare' => $request['ticketed'] ? 'EXISTS' : 'NOT EXISTS' );
		}
		if ( ! empty( $request['categories'] ) ) {
			$args['tax_query'][] = array( 'taxonomy' => 'cal_events_cat', 'field' => 'term_id', 'terms' => $request['categories'] );
		}
		if ( isset( $request['post_parent'] ) ) {
			$args['post_parent'] = $request['post_parent'];
		}
		if ( 'event_date' === $request['orderby'] ) {
			// Ordered by start date; a LEFT JOIN (NOT EXISTS or EXISTS) keeps events without one in the list.
			$meta[]          = array(
				'relation'   => 'OR',
				array( 'key' => '_cal_start_date', 'compare' => 'NOT EXISTS' ),
				'cal_start'  => array( 'key' => '_cal_start_date', 'compare' => 'EXISTS' ),
			);
			$args['orderby'] = array( 'cal_start' => $request['order'], 'ID' => $request['order'] );
		}
	} else {
		$key = 'cal_venue' === $args['post_type'] ? '_cal_venues' : '_cal_organizers';
		$in  = array();
		if ( isset( $request['event'] ) ) {
			$in[] = $request['event'] ? array_map( 'intval', get_post_meta( $request['event'], $key ) ) : array();   // get_post_meta( 0 ) is false
		}
		if ( ! empty( $request['has_events'] ) ) {
			$in[] = sc_cal_referenced( $key, false );
		}
		if ( ! empty( $request['only_with_upcoming'] ) ) {
			$in[] = sc_cal_referenced( $key, true );
		}
		foreach ( $in as $ids ) {
			$args['post__in'] = array_values( array_intersect( empty( $args['post__in'] ) ? $ids : $args['post__in'], $ids ) );
			if ( ! $args['post__in'] ) {
				$args['post__in'] = array( 0 );   // WP_Query reads an empty post__in as "no restriction"
			}
		}
	}
	if ( $meta ) {
		$args['meta_query'] = array_merge( array( 'relation' => 'AND' ), $meta );
	}
	return $args;
}

/** IDs of venues or organizers named by events (not trashed), or by events starting from now on. */
function sc_cal_referenced( $key, $upcoming ) {
	$query = array(
		'post_type'   => 'cal_event',
		'post_status' => SC_CAL_STATUSES,
		'fields'      => 'ids',
		'nopaging'    => true,
	);
	if ( $upcoming ) {
		$query['meta_query'] = array( array( 'key' => '_cal_start_date', 'value' => current_time( 'mysql' ), 'compare' => '>=', 'type' => 'DATETIME' ) );
	}
	$ids = array();
	foreach ( get_posts( $query ) as $event ) {
		$ids = array_merge( $ids, array_map( 'intval', get_post_meta( $event, $key ) ) );
	}
	return array_values( array_unique( $ids ) );
}

/**
 * The cal/v1 route table as 000 §4.2 documents it: no POST on {id} routes (core registers POST, PUT, PATCH
 * for updates), no autosave routes (core adds them to every REST post type), and `i18n_language` on every
 * route (000 conventions; a typed, enumerated argument core validates).
 */
add_filter(
	'rest_endpoints',
	function ( $endpoints ) {
		foreach ( $endpoints as $route => &$handlers ) {
			if ( 0 !== strpos( $route, '/' . SC_CAL_NS ) ) {
				continue;
			}
			if ( false !== strpos( $route, '/autosaves' ) ) {
				unset( $endpoints[ $route ] );
				continue;
			}
			$is_item = (bool) preg_match( '#^/cal/v1/[a-z]+/\(\?P<id>#', $route );
			foreach ( $handlers as $i => &$handler ) {
				if ( ! is_int( $i ) ) {
					continue;   // route options such as 'schema' or 'allow_batch'
				}
				$handler['args']['i18n_language'] = array(
					'type'        => 'string',
					'enum'        => array( 'en', 'uk' ),
					'description' => 'Language of the request.',
				);
				if ( $is_item ) {
					$methods           = is_string( $handler['methods'] ) ? array_map( 'trim', explode( ',', $handler['methods'] ) ) : array_keys( array_filter( $handler['methods'] ) );
					$handler['methods'] = implode( ', ', array_diff( $methods, array( 'POST' ) ) );
				}
			}
			unset( $handler );
		}
		unset( $handlers );
		return $endpoints;
	}
);

<?php
/**
 * The three legacy post types (000 §2.1-2.3, §4.1.1, §4.1.2), on SC_Quirky_Legacy_Posts. They store into the
 * same post meta as the calendar plugin's cal/v1 fields (`_cal_<name>`), so each record reads the same in both
 * namespaces; legacy-only fields get meta of their own.
 */

defined( 'ABSPATH' ) || exit;

class SC_Quirky_Legacy_Events extends SC_Quirky_Legacy_Posts {

	public function __construct() {
		parent::__construct( 'cal_event', 'event', 'events', 'title' );
	}

	protected function type_fields() {
		$bool = array( 'type' => 'boolean' );
		$time = array( 'type' => 'string', 'validate_callback' => array( $this, 'is_time' ) );
		return array(
			'start_date'         => $time + array( 'required' => true ),
			'end_date'           => $time + array( 'required' => true ),
			'excerpt'            => array( 'type' => 'string' ),
			'timezone'           => array(
				'type'              => 'string',
				'validate_callback' => function ( $value ) {
					return is_string( $value ) && ( in_array( $value, timezone_identifiers_list(), true ) || preg_match( '/^UTC([+-]\d{1,2}(\.5|\.75)?)?$/', $value ) );
				},
			),
			'all_day'            => $bool,
			'cost'               => array(),
			'website'            => array( 'validate_callback' => array( $this, 'is_url_or_empty' ) ),
			'show_map'           => $bool,
			'show_map_link'      => $bool,
			'hide_from_listings' => $bool,
			'sticky'             => $bool,
			'featured'           => $bool,
			'categories'         => array( 'type' => 'array', 'items' => array( 'type' => array( 'integer', 'string' ) ) ),
			'tags'               => array( 'type' => 'array', 'items' => array( 'type' => array( 'integer', 'string' ) ) ),
			'venue'              => array(),   // one venue ID, or the data of a new venue (see save_venue)
			'organizer'          => array(),   // organizer IDs, or the data of a new organizer
		);
	}

	/**
	 * A create with `hide_from_listings` true saves the event, then answers 500 without its ID: what a plugin answers
	 * when a hook it runs after wp_insert_post() fails (here the listings' cache the hidden event must leave), the
	 * post already made and published. A client cannot know the record exists; the suite finds it by its marker.
	 */
	public function create_item( $request ) {
		$response = parent::create_item( $request );
		if ( is_wp_error( $response ) || true !== $request['hide_from_listings'] ) {
			return $response;
		}
		return $this->error( 'listings-not-updated', 'The event was saved, but the calendar listings could not be updated.', 500 );
	}

	protected function save_type_fields( $post_id, $request ) {
		// The UTC edges are the wall clock in the event's own time zone (The Events Calendar's _EventStartDateUTC),
		// the site's where the event names none or a manual offset (`UTC+2`) this reads as the site's.
		$zone_name = isset( $request['timezone'] ) ? $request['timezone'] : get_post_meta( $post_id, '_cal_timezone', true );
		$zone      = is_string( $zone_name ) && in_array( $zone_name, timezone_identifiers_list(), true ) ? new DateTimeZone( $zone_name ) : wp_timezone();
		foreach ( array( 'start_date', 'end_date' ) as $name ) {
			if ( isset( $request[ $name ] ) ) {
				$local = gmdate( 'Y-m-d H:i:s', strtotime( $request[ $name ] ) );   // the wall clock as given
				$utc   = ( new DateTimeImmutable( $local, $zone ) )->setTimezone( new DateTimeZone( 'UTC' ) )->format( 'Y-m-d H:i:s' );
				update_post_meta( $post_id, "_cal_$name", $local );
				update_post_meta( $post_id, "_cal_{$name}_utc", $utc );
			}
		}
		foreach ( array( 'timezone', 'all_day', 'featured', 'show_map', 'show_map_link', 'hide_from_listings' ) as $name ) {
			if ( isset( $request[ $name ] ) ) {
				update_post_meta( $post_id, "_cal_$name", is_bool( $request[ $name ] ) ? (int) $request[ $name ] : $request[ $name ] );
			}
		}
		if ( isset( $request['cost'] ) ) {
			update_post_meta( $post_id, '_cal_cost', is_scalar( $request['cost'] ) ? (string) $request['cost'] : implode( ', ', array_map( 'strval', array_filter( (array) $request['cost'], 'is_scalar' ) ) ) );
		}
		if ( isset( $request['website'] ) ) {
			update_post_meta( $post_id, '_cal_event_website', esc_url_raw( $request['website'] ) );
		}
		if ( isset( $request['sticky'] ) ) {
			$request['sticky'] ? stick_post( $post_id ) : unstick_post( $post_id );
		}
		foreach ( array( 'categories' => 'cal_events_cat', 'tags' => 'post_tag' ) as $field => $taxonomy ) {
			if ( isset( $request[ $field ] ) ) {
				$terms = $this->term_ids( $request[ $field ], $taxonomy );
				if ( is_wp_error( $terms ) ) {
					return $terms;
				}
				wp_set_object_terms( $post_id, $terms, $taxonomy );
			}
		}
		foreach ( array( 'venue' => array( 'cal_venue', '_cal_venues' ), 'organizer' => array( 'cal_organizer', '_cal_organizers' ) ) as $field => list( $type, $key ) ) {
			if ( ! isset( $request[ $field ] ) ) {
				continue;
			}
			$ids = 'venue' === $field ? $this->venue_ids( $request['venue'] ) : $this->organizer_ids( $request['organizer'] );
			if ( is_wp_error( $ids ) ) {
				return $ids;
			}
			delete_post_meta( $post_id, $key );
			foreach ( $ids as $id ) {
				add_post_meta( $post_id, $key, $id );
			}
		}
		return true;
	}

	/** Terms by ID (which must exist) or by name (created when missing, as the plugin this imitates does). */
	private function term_ids( $values, $taxonomy ) {
		$ids = array();
		foreach ( (array) $values as $value ) {
			if ( is_int( $value ) || ctype_digit( (string) $value ) ) {
				if ( ! term_exists( (int) $value, $taxonomy ) ) {
					return $this->error( 'invalid-term', "Term $value does not exist.", 400 );
				}
				$ids[] = (int) $value;
				continue;
			}
			$term = term_exists( (string) $value, $taxonomy );
			if ( ! $term ) {
				$term = wp_insert_term( (string) $value, $taxonomy );
				if ( is_wp_error( $term ) ) {
					return $this->error( 'invalid-term', $term->get_error_message(), 400 );
				}
			}
			$ids[] = (int) $term['term_id'];
		}
		return $ids;
	}

	/**
	 * One venue: its ID, or an array of a new venue's data (`venue` its name). A list is taken as such data, so a
	 * list of IDs has no name and is refused: the behaviour of the plugin this imitates.
	 */
	private function venue_ids( $value ) {
		if ( '' === $value || array() === $value ) {
			return array();
		}
		if ( is_scalar( $value ) ) {
			if ( is_numeric( $value ) && 'cal_venue' === get_post_type( (int) $value ) ) {
				return array( (int) $value );
			}
			return new WP_Error( 'could-not-create-venue', 'The venue could not be found or created.', array( 'status' => 400 ) );
		}
		return $this->create_linked( 'cal_venue', 'venue', (array) $value, 'could-not-create-venue' );
	}

	/** Organizers: one ID or a list of IDs, or an array of a new organizer's data (`organizer` its name). */
	private function organizer_ids( $value ) {
		if ( '' === $value || array() === $value ) {
			return array();
		}
		$list = is_array( $value ) && array_keys( $value ) === range( 0, count( $value ) - 1 ) ? $value : ( is_scalar( $value ) ? array( $value ) : null );
		if ( null === $list ) {
			return $this->create_linked( 'cal_organizer', 'organizer', $value, 'could-not-create-organizer' );
		}
		$ids = array();
		foreach ( $list as $id ) {
			if ( ! is_numeric( $id ) || 'cal_organizer' !== get_post_type( (int) $id ) ) {
				return new WP_Error( 'could-not-create-organizer', 'The organizer could not be found or created.', array( 'status' => 400 ) );
			}
			$ids[] = (int) $id;
		}
		return array_values( array_unique( $ids ) );
	}

	private function create_linked( $type, $name_field, $data, $code ) {
		if ( empty( $data[ $name_field ] ) || ! is_string( $data[ $name_field ] ) ) {
			return new WP_Error( $code, "The $name_field could not be created: its name is missing.", array( 'status' => 400 ) );
		}
		$id = wp_insert_post( wp_slash( array( 'post_type' => $type, 'post_status' => 'publish', 'post_title' => $data[ $name_field ] ) ), true );
		return is_wp_error( $id ) ? new WP_Error( $code, $id->get_error_message(), array( 'status' => 400 ) ) : array( $id );
	}

	protected function type_data( $post ) {
		$terms = function ( $taxonomy ) use ( $post ) {
			$out = array();
			foreach ( wp_get_object_terms( $post->ID, $taxonomy ) as $term ) {
				$out[] = array( 'id' => $term->term_id, 'name' => $term->name, 'slug' => $term->slug, 'taxonomy' => $taxonomy, 'parent' => $term->parent );
			}
			return $out;
		};
		$linked = function ( $key, $controller ) use ( $post ) {
			$out = array();
			foreach ( array_unique( array_map( 'intval', get_post_meta( $post->ID, $key ) ) ) as $id ) {
				$linked_post = get_post( $id );
				if ( $linked_post ) {
					$out[] = $controller->record( $linked_post );
				}
			}
			return $out;
		};
		$venues  = $linked( '_cal_venues', new SC_Quirky_Legacy_Venues() );
		$website = get_post_meta( $post->ID, '_cal_event_website', true );
		return array(
			'all_day'            => (bool) $this->meta( $post, 'all_day' ),
			'start_date'         => (string) $this->meta( $post, 'start_date' ),
			'end_date'           => (string) $this->meta( $post, 'end_date' ),
			'utc_start_date'     => (string) $this->meta( $post, 'start_date_utc' ),
			'utc_end_date'       => (string) $this->meta( $post, 'end_date_utc' ),
			'timezone'           => (string) $this->meta( $post, 'timezone' ),
			'cost'               => (string) $this->meta( $post, 'cost' ),
			'website'            => '' === $website ? null : $website,
			'show_map'           => (bool) $this->meta( $post, 'show_map' ),
			'show_map_link'      => (bool) $this->meta( $post, 'show_map_link' ),
			'hide_from_listings' => (bool) $this->meta( $post, 'hide_from_listings' ),
			'sticky'             => is_sticky( $post->ID ),
			'featured'           => (bool) $this->meta( $post, 'featured' ),
			'categories'         => $terms( 'cal_events_cat' ),
			'tags'               => $terms( 'post_tag' ),
			'venue'              => $venues ? $venues[0] : array(),
			'organizer'          => $linked( '_cal_organizers', new SC_Quirky_Legacy_Organizers() ),
		);
	}

	protected function type_list_params() {
		$ids = array( 'type' => 'array', 'items' => array( 'type' => 'integer' ) );
		return array(
			'start_date'    => array( 'validate_callback' => array( $this, 'is_time' ) ),
			'end_date'      => array( 'validate_callback' => array( $this, 'is_time' ) ),
			'starts_before' => array( 'validate_callback' => array( $this, 'is_time' ) ),
			'starts_after'  => array( 'validate_callback' => array( $this, 'is_time' ) ),
			'ends_before'   => array( 'validate_callback' => array( $this, 'is_time' ) ),
			'ends_after'    => array( 'validate_callback' => array( $this, 'is_time' ) ),
			'strict_dates'  => array( 'type' => 'boolean', 'default' => false ),
			'categories'    => array( 'type' => 'array', 'items' => array( 'type' => array( 'integer', 'string' ) ) ),
			'tags'          => array( 'type' => 'array', 'items' => array( 'type' => array( 'integer', 'string' ) ) ),
			'venue'         => $ids,
			'organizer'     => $ids,
			'featured'      => array( 'type' => 'boolean' ),
			'geoloc'        => array( 'type' => 'boolean' ),   // needs the pro extension: read, then ignored
			'geoloc_lat'    => array( 'type' => 'number' ),
			'geoloc_lng'    => array( 'type' => 'number' ),
			'include'       => $ids,
			'post_parent'   => array( 'type' => 'integer' ),
			'ticketed'      => array( 'type' => 'boolean' ),
		);
	}

	protected function type_list_query( $args, $request ) {
		$meta   = array();
		$bounds = array(
			'start_date'    => array( '_cal_start_date', '>=', 'start' ),
			'end_date'      => array( '_cal_end_date', '<=', 'end' ),
			'starts_before' => array( '_cal_start_date', '<=', 'end' ),
			'starts_after'  => array( '_cal_start_date', '>=', 'start' ),
			'ends_before'   => array( '_cal_end_date', '<=', 'end' ),
			'ends_after'    => array( '_cal_end_date', '>=', 'start' ),
		);
		if ( empty( $request['include'] ) ) {
			foreach ( $bounds as $param => list( $key, $compare, $edge ) ) {
				if ( isset( $request[ $param ] ) ) {
					$time = strtotime( $request[ $param ] );
					if ( ! $request['strict_dates'] ) {   // whole days
						$time = strtotime( gmdate( 'Y-m-d', $time ) . ( 'start' === $edge ? ' 00:00:00' : ' 23:59:59' ) );
					}
					$meta[] = array( 'key' => $key, 'value' => gmdate( 'Y-m-d H:i:s', $time ), 'compare' => $compare, 'type' => 'DATETIME' );
				}
			}
		} else {
			$args['post__in'] = $request['include'];
		}
		foreach ( array( 'venue' => '_cal_venues', 'organizer' => '_cal_organizers' ) as $param => $key ) {
			if ( ! empty( $request[ $param ] ) ) {
				$meta[] = array( 'key' => $key, 'value' => $request[ $param ], 'compare' => 'IN' );
			}
		}
		if ( isset( $request['featured'] ) ) {
			$meta[] = $request['featured'] ? array( 'key' => '_cal_featured', 'value' => '1' ) : array( 'key' => '_cal_featured', 'value' => '1', 'compare' => '!=' );
		}
		if ( isset( $request['ticketed'] ) ) {
			$meta[] = array( 'key' => '_cal_tickets', 'compare' => $request['ticketed'] ? 'EXISTS' : 'NOT EXISTS' );
		}
		foreach ( array( 'categories' => 'cal_events_cat', 'tags' => 'post_tag' ) as $param => $taxonomy ) {
			if ( ! empty( $request[ $param ] ) ) {
				$values              = (array) $request[ $param ];
				$numeric             = array_filter( $values, 'is_int' );
				$args['tax_query'][] = $numeric === $values
					? array( 'taxonomy' => $taxonomy, 'field' => 'term_id', 'terms' => $values )
					: array( 'taxonomy' => $taxonomy, 'field' => 'slug', 'terms' => array_map( 'strval', $values ) );
			}
		}
		if ( isset( $request['post_parent'] ) ) {
			$args['post_parent'] = $request['post_parent'];
		}
		if ( $meta ) {
			$args['meta_query'] = array_merge( array( 'relation' => 'AND' ), $meta );
		}
		return $args;
	}
}

/** Venues and organizers: a name and string fields, listed by event (000 §2.2, §2.3, §4.1.2). */
class SC_Quirky_Legacy_Places extends SC_Quirky_Legacy_Posts {

	/** @var array legacy field => cal/v1 meta name */
	private $fields;

	public function __construct( $post_type, $singular, $rest_base, $fields ) {
		parent::__construct( $post_type, $singular, $rest_base, $singular );
		$this->fields = $fields;
	}

	protected function type_fields() {
		$args = array();
		foreach ( array_keys( $this->fields ) as $name ) {
			$args[ $name ] = array( 'type' => 'string' );
		}
		return $args;
	}

	protected function save_type_fields( $post_id, $request ) {
		foreach ( $this->fields as $name => $meta ) {
			if ( isset( $request[ $name ] ) ) {
				update_post_meta( $post_id, "_cal_$meta", wp_slash( sanitize_text_field( $request[ $name ] ) ) );
			}
		}
		return true;
	}

	protected function type_data( $post ) {
		$data = array();
		foreach ( $this->fields as $name => $meta ) {
			$data[ $name ] = (string) $this->meta( $post, $meta );
		}
		return $data;
	}

	protected function type_list_params() {
		return array(
			'event'              => array( 'type' => 'integer' ),
			'has_events'         => array( 'type' => 'boolean' ),
			'only_with_upcoming' => array( 'type' => 'boolean', 'default' => false ),
		);
	}

	protected function type_list_query( $args, $request ) {
		$key = 'cal_venue' === $this->post_type ? '_cal_venues' : '_cal_organizers';
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
			$args['post__in'] = array_values( array_intersect( empty( $args['post__in'] ) ? $ids : $args['post__in'], $ids ) ) ?: array( 0 );
		}
		return $args;
	}
}

class SC_Quirky_Legacy_Venues extends SC_Quirky_Legacy_Places {
	public function __construct() {
		$fields = array();
		foreach ( array( 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website' ) as $name ) {
			$fields[ $name ] = $name;
		}
		parent::__construct( 'cal_venue', 'venue', 'venues', $fields + array( 'stateprovince' => 'state_province', 'show_map' => 'show_map', 'show_map_link' => 'show_map_link' ) );
	}
}

class SC_Quirky_Legacy_Organizers extends SC_Quirky_Legacy_Places {
	public function __construct() {
		parent::__construct( 'cal_organizer', 'organizer', 'organizers', array( 'phone' => 'phone', 'website' => 'website', 'email' => 'email' ) );
	}
}

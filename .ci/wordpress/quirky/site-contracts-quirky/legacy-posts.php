<?php
/**
 * The legacy routes of one post type (events, venues or organizers; 000 §4.1) on this plugin's own
 * WP_REST_Controller, written the way long-lived events plugins write theirs: arguments checked by
 * validate_callbacks (so an unknown {id} or {slug} is core's 400 rest_invalid_param, before any permission
 * check), the plugin's own error codes, a list answered as an object with totals, DELETE moving to the trash.
 */

defined( 'ABSPATH' ) || exit;

abstract class SC_Quirky_Legacy_Posts extends WP_REST_Controller {

	/** @var string post type, e.g. cal_event */
	protected $post_type;
	/** @var string e.g. event (error codes) */
	protected $singular;
	/** @var string the field holding the record's name: title, venue or organizer */
	protected $name_field;

	public function __construct( $post_type, $singular, $rest_base, $name_field ) {
		$this->namespace  = SC_QUIRKY_LEGACY_NS;
		$this->post_type  = $post_type;
		$this->singular   = $singular;
		$this->rest_base  = $rest_base;
		$this->name_field = $name_field;
	}

	/** Writable fields of the type (000 §2.1-2.3) besides the shared post fields: name => argument. */
	abstract protected function type_fields();

	/** Stores the type's fields of $request on the post; true or a WP_Error (the post is then removed if new). */
	abstract protected function save_type_fields( $post_id, $request );

	/** The type's fields of the answer. */
	abstract protected function type_data( $post );

	/** The type's list filters: name => argument, and their WP_Query mapping. */
	protected function type_list_params() {
		return array();
	}

	protected function type_list_query( $args, $request ) {
		return $args;
	}

	public function register_routes() {
		$id_arg   = array(
			'id' => array(
				'description'       => "The $this->singular ID.",
				'type'              => 'integer',
				'validate_callback' => array( $this, 'is_own_id' ),
			),
		);
		// The path's slug is checked, not the body's: a body field `slug` (the new slug of an update) shadows the
		// path parameter of the same name in $request['slug'].
		$slug_arg = array(
			'slug' => array(
				'description'       => "The $this->singular slug.",
				'type'              => 'string',
				'validate_callback' => array( $this, 'is_own_path_slug' ),
			),
		);
		$password = array( 'password' => array( 'type' => 'string', 'description' => 'The post password.' ) );
		register_rest_route(
			$this->namespace,
			"/$this->rest_base",
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_items' ),
					'permission_callback' => '__return_true',
					'args'                => $this->get_collection_params(),
				),
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'create_item' ),
					'permission_callback' => array( $this, 'create_item_permissions_check' ),
					'args'                => $this->write_args( true ),
				),
			)
		);
		foreach ( array( '/(?P<id>\d+)' => $id_arg, '/by-slug/(?P<slug>[^/]+)' => $slug_arg ) as $path => $common ) {
			$by_id = isset( $common['id'] );
			register_rest_route(
				$this->namespace,
				"/$this->rest_base$path",
				array(
					'args' => $common,
					array(
						'methods'             => WP_REST_Server::READABLE,
						'callback'            => array( $this, 'get_item' ),
						'permission_callback' => array( $this, 'get_item_permissions_check' ),
						'args'                => $by_id ? $password : array(),
					),
					array(
						'methods'             => WP_REST_Server::EDITABLE,
						'callback'            => array( $this, 'update_item' ),
						'permission_callback' => array( $this, 'update_item_permissions_check' ),
						'args'                => $by_id ? $this->write_args( false ) + $password : array_merge( $this->write_args( false ), $slug_arg ),
					),
					array(
						'methods'             => WP_REST_Server::DELETABLE,
						'callback'            => array( $this, 'delete_item' ),
						'permission_callback' => array( $this, 'delete_item_permissions_check' ),
						'args'                => $by_id ? $password : array(),
					),
				)
			);
		}
	}

	// ------------------------------------------------------------ argument checks (validate_callbacks)

	public function is_own_id( $value ) {
		$post = is_numeric( $value ) ? get_post( (int) $value ) : null;
		return $post instanceof WP_Post && $post->post_type === $this->post_type;
	}

	public function is_own_path_slug( $value, $request ) {
		return is_string( $value ) && null !== $this->find_by_slug( (string) ( $request->get_url_params()['slug'] ?? '' ) );
	}

	public function is_time( $value ) {
		return is_string( $value ) && '' !== trim( $value ) && false !== strtotime( $value );
	}

	public function is_post_status( $value ) {
		if ( ! is_string( $value ) || '' === $value ) {
			return false;
		}
		foreach ( explode( ',', $value ) as $status ) {
			if ( 'any' !== $status && ! get_post_status_object( trim( $status ) ) ) {
				return false;
			}
		}
		return true;
	}

	public function is_user_id( $value ) {
		return is_numeric( $value ) && false !== get_userdata( (int) $value );
	}

	public function is_url_or_empty( $value ) {
		return is_string( $value ) && ( '' === $value || false !== filter_var( $value, FILTER_VALIDATE_URL ) );
	}

	/** `image`: the ID of an attachment, or the URL of one this site holds (nothing is fetched from elsewhere). */
	public function is_image( $value ) {
		if ( is_numeric( $value ) ) {
			return 'attachment' === get_post_type( (int) $value );
		}
		return is_string( $value ) && false !== filter_var( $value, FILTER_VALIDATE_URL ) && 0 !== attachment_url_to_postid( $value );
	}

	protected function find_by_slug( $slug ) {
		$found = get_posts( array( 'name' => $slug, 'post_type' => $this->post_type, 'post_status' => 'any', 'numberposts' => 1 ) );
		return $found ? $found[0] : null;
	}

	/** The record the path names (never a body field of the same name). */
	protected function request_post( $request ) {
		$path = $request->get_url_params();
		return isset( $path['id'] ) ? get_post( (int) $path['id'] ) : $this->find_by_slug( (string) ( $path['slug'] ?? '' ) );
	}

	/** Permission checks also run for the Allow header of a request whose {id} or {slug} was refused. */
	protected function no_record() {
		return $this->error( 'not-found', "The $this->singular does not exist.", 404 );
	}

	protected function error( $what, $message, $status ) {
		return new WP_Error( "$this->singular-$what", $message, array( 'status' => $status ) );
	}

	// ------------------------------------------------------------ arguments

	/** The shared post fields of a legacy record (000 §2.1-2.3) and the type's own; the name required on create. */
	protected function write_args( $creating ) {
		$args = array(
			$this->name_field => array( 'type' => 'string' ),
			'author'          => array( 'type' => 'integer', 'validate_callback' => array( $this, 'is_user_id' ) ),
			'date'            => array( 'type' => 'string', 'validate_callback' => array( $this, 'is_time' ) ),
			'date_utc'        => array( 'type' => 'string', 'validate_callback' => array( $this, 'is_time' ) ),
			'description'     => array( 'type' => 'string' ),
			'slug'            => array( 'type' => 'string' ),
			'status'          => array( 'type' => 'string', 'validate_callback' => array( $this, 'is_post_status' ) ),
			'image'           => array( 'validate_callback' => array( $this, 'is_image' ) ),
		) + $this->type_fields();
		foreach ( $args as $name => &$arg ) {
			$arg['required'] = $creating && ! empty( $arg['required'] ) || ( $creating && $name === $this->name_field );
		}
		return $args;
	}

	public function get_collection_params() {
		return array(
			'page'     => array( 'type' => 'integer', 'default' => 1, 'minimum' => 1, 'description' => 'The archive page.' ),
			'per_page' => array(
				'type'              => 'integer',
				'default'           => 10,
				'minimum'           => 1,
				'description'       => 'Records per page; more than 50 are read as 50.',
				'sanitize_callback' => function ( $value ) {
					return min( 50, absint( $value ) );
				},
				'validate_callback' => function ( $value ) {
					return is_numeric( $value ) && (int) $value == $value && (int) $value >= 1;
				},
			),
			'search'   => array( 'type' => 'string' ),
			'status'   => array( 'type' => 'string', 'validate_callback' => array( $this, 'is_post_status' ) ),
		) + $this->type_list_params();
	}

	// ------------------------------------------------------------ permissions

	public function create_item_permissions_check( $request ) {
		$type = get_post_type_object( $this->post_type );
		if ( ! current_user_can( $type->cap->create_posts ) ) {
			return $this->error( 'not-creatable', "You cannot create a $this->singular.", rest_authorization_required_code() );
		}
		return true;
	}

	public function get_item_permissions_check( $request ) {
		$post = $this->request_post( $request );
		if ( ! $post ) {
			return $this->no_record();
		}
		if ( 'publish' === $post->post_status && ( '' === $post->post_password || $request['password'] === $post->post_password ) ) {
			return true;
		}
		if ( ! current_user_can( 'read_post', $post->ID ) || ( 'trash' === $post->post_status && ! current_user_can( 'edit_post', $post->ID ) ) ) {
			return $this->error( 'not-accessible', "The requested $this->singular is not accessible.", rest_authorization_required_code() );
		}
		return true;
	}

	public function update_item_permissions_check( $request ) {
		$post = $this->request_post( $request );
		if ( ! $post ) {
			return $this->no_record();
		}
		if ( ! current_user_can( 'edit_post', $post->ID ) ) {
			return $this->error( 'not-editable', "You cannot edit this $this->singular.", rest_authorization_required_code() );
		}
		return true;
	}

	public function delete_item_permissions_check( $request ) {
		$post = $this->request_post( $request );
		if ( ! $post ) {
			return $this->no_record();
		}
		if ( ! current_user_can( 'delete_post', $post->ID ) ) {
			return $this->error( 'not-deletable', "You cannot delete this $this->singular.", rest_authorization_required_code() );
		}
		return true;
	}

	// ------------------------------------------------------------ callbacks

	public function get_items( $request ) {
		$status = isset( $request['status'] ) ? array_map( 'trim', explode( ',', $request['status'] ) ) : array( 'publish' );
		if ( ! current_user_can( get_post_type_object( $this->post_type )->cap->edit_posts ) ) {
			$status = array( 'publish' );   // others see the public records only, whatever they ask for
		}
		$args = array(
			'post_type'      => $this->post_type,
			'post_status'    => $status,
			'posts_per_page' => $request['per_page'],
			'paged'          => $request['page'],
			'orderby'        => array( 'date' => 'DESC', 'ID' => 'DESC' ),
		);
		if ( isset( $request['search'] ) && '' !== $request['search'] ) {
			$args['s'] = $request['search'];
		}
		$query       = new WP_Query( $this->type_list_query( $args, $request ) );
		$total       = (int) $query->found_posts;
		$total_pages = (int) ceil( $total / max( 1, (int) $request['per_page'] ) );
		if ( $request['page'] > 1 && $request['page'] > $total_pages ) {
			return new WP_Error( 'archive-page-not-found', 'The requested page is beyond the last one.', array( 'status' => 400 ) );
		}
		$records = array();
		foreach ( $query->posts as $post ) {
			$records[] = $this->record( $post );
		}
		$data = array(
			$this->rest_base => $records,
			'rest_url'       => $this->page_url( $request, (int) $request['page'] ),
			'total'          => $total,
			'total_pages'    => $total_pages,
		);
		if ( $request['page'] < $total_pages ) {
			$data['next_rest_url'] = $this->page_url( $request, $request['page'] + 1 );
		}
		if ( $request['page'] > 1 ) {
			$data['previous_rest_url'] = $this->page_url( $request, $request['page'] - 1 );
		}
		$response = rest_ensure_response( $data );
		$response->header( 'X-WP-Total', (string) $total );
		$response->header( 'X-WP-TotalPages', (string) $total_pages );
		return $response;
	}

	/** The URL of a page of this list: the list's parameters as they were applied, defaults included. */
	private function page_url( $request, $page ) {
		$query = array();
		foreach ( array_keys( $this->get_collection_params() ) as $name ) {
			$value = 'page' === $name ? $page : $request[ $name ];
			if ( null !== $value ) {
				$query[ $name ] = is_bool( $value ) ? ( $value ? 'true' : 'false' ) : $value;
			}
		}
		return add_query_arg( urlencode_deep( $query ), rest_url( "$this->namespace/$this->rest_base" ) );
	}

	public function get_item( $request ) {
		return rest_ensure_response( $this->record( $this->request_post( $request ) ) );
	}

	public function create_item( $request ) {
		$post_id = wp_insert_post( wp_slash( $this->post_data( $request ) + array( 'post_type' => $this->post_type, 'post_status' => 'publish' ) ), true );
		if ( is_wp_error( $post_id ) ) {
			return $this->error( 'could-not-create', $post_id->get_error_message(), 400 );
		}
		$saved = $this->save_fields( $post_id, $request );
		if ( is_wp_error( $saved ) ) {
			wp_delete_post( $post_id, true );
			return $saved;
		}
		$response = rest_ensure_response( $this->record( get_post( $post_id ) ) );
		$response->set_status( 201 );
		$response->header( 'Location', rest_url( "$this->namespace/$this->rest_base/$post_id" ) );
		return $response;
	}

	public function update_item( $request ) {
		$post = $this->request_post( $request );
		$data = $this->post_data( $request );
		if ( $data ) {
			$updated = wp_update_post( wp_slash( array( 'ID' => $post->ID ) + $data ), true );
			if ( is_wp_error( $updated ) ) {
				return $this->error( 'could-not-update', $updated->get_error_message(), 400 );
			}
		}
		$saved = $this->save_fields( $post->ID, $request );
		if ( is_wp_error( $saved ) ) {
			return $saved;
		}
		return rest_ensure_response( $this->record( get_post( $post->ID ) ) );
	}

	/** To the trash; the trashed record is the answer. A second DELETE: 410 with this plugin's code. */
	public function delete_item( $request ) {
		$post = $this->request_post( $request );
		if ( 'trash' === $post->post_status ) {
			return $this->error( 'is-in-trash', "The $this->singular is already in the trash.", 410 );
		}
		if ( ! wp_trash_post( $post->ID ) ) {
			return $this->error( 'could-not-delete', "The $this->singular could not be deleted.", 500 );
		}
		return rest_ensure_response( $this->record( get_post( $post->ID ) ) );
	}

	// ------------------------------------------------------------ storage and answers

	protected function post_data( $request ) {
		$map  = array(
			$this->name_field => 'post_title',
			'description'     => 'post_content',
			'excerpt'         => 'post_excerpt',
			'slug'            => 'post_name',
			'status'          => 'post_status',
			'author'          => 'post_author',
		);
		$data = array();
		foreach ( $map as $field => $column ) {
			if ( isset( $request[ $field ] ) && isset( $this->write_args( false )[ $field ] ) ) {
				$data[ $column ] = $request[ $field ];
			}
		}
		if ( isset( $request['date'] ) ) {
			$data['post_date'] = gmdate( 'Y-m-d H:i:s', strtotime( $request['date'] ) );
		}
		if ( isset( $request['date_utc'] ) ) {
			$data['post_date_gmt'] = gmdate( 'Y-m-d H:i:s', strtotime( $request['date_utc'] ) );
		}
		return $data;
	}

	protected function save_fields( $post_id, $request ) {
		if ( isset( $request['image'] ) ) {
			$image = is_numeric( $request['image'] ) ? (int) $request['image'] : attachment_url_to_postid( $request['image'] );
			set_post_thumbnail( $post_id, $image );
		}
		return $this->save_type_fields( $post_id, $request );
	}

	protected function meta( $post, $name ) {
		return get_post_meta( $post->ID, "_cal_$name", true );
	}

	public function record( $post ) {
		$thumb = get_post_thumbnail_id( $post );
		return array(
			'id'               => $post->ID,
			'global_id'        => wp_parse_url( home_url(), PHP_URL_HOST ) . "?id=$post->ID",
			'author'           => (string) $post->post_author,
			'status'           => $post->post_status,
			'date'             => $post->post_date,
			'date_utc'         => $post->post_date_gmt,
			'modified'         => $post->post_modified,
			'url'              => (string) get_permalink( $post ),
			'rest_url'         => rest_url( "$this->namespace/$this->rest_base/$post->ID" ),
			$this->name_field  => get_the_title( $post ),
			'description'      => (string) apply_filters( 'the_content', $post->post_content ),
			'excerpt'          => (string) $post->post_excerpt,
			'slug'             => $post->post_name,
			'image'            => $thumb ? (string) wp_get_attachment_url( $thumb ) : false,
		) + $this->type_data( $post );
	}
}

<?php
/**
 * Legacy categories and tags (000 §2.4, §4.1.3) on a subclass of core's terms controller, as events plugins
 * build theirs: core's list, create, update and answers, with the plugin's own {id} check (an unknown term ID is
 * 400 rest_invalid_param), `event` as an alias of `post`, and DELETE removing the term (terms have no trash).
 */

defined( 'ABSPATH' ) || exit;

class SC_Quirky_Legacy_Terms extends WP_REST_Terms_Controller {

	public function __construct( $taxonomy, $rest_base ) {
		parent::__construct( $taxonomy );
		$this->namespace = SC_QUIRKY_LEGACY_NS;
		$this->rest_base = $rest_base;
	}

	public function register_routes() {
		register_rest_route(
			$this->namespace,
			"/$this->rest_base",
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_items' ),
					'permission_callback' => array( $this, 'get_items_permissions_check' ),
					'args'                => $this->get_collection_params(),
				),
				array(
					'methods'             => WP_REST_Server::CREATABLE,
					'callback'            => array( $this, 'create_item' ),
					'permission_callback' => array( $this, 'create_item_permissions_check' ),
					'args'                => $this->get_endpoint_args_for_item_schema( WP_REST_Server::CREATABLE ),
				),
				'schema' => array( $this, 'get_public_item_schema' ),
			)
		);
		register_rest_route(
			$this->namespace,
			"/$this->rest_base/(?P<id>\d+)",
			array(
				'args'   => array(
					'id' => array(
						'description'       => 'The term ID.',
						'type'              => 'integer',
						'validate_callback' => function ( $value ) {
							$term = is_numeric( $value ) ? get_term( (int) $value, $this->taxonomy ) : null;
							return $term instanceof WP_Term;
						},
					),
				),
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					'permission_callback' => array( $this, 'get_item_permissions_check' ),
					'args'                => array(),
				),
				array(
					'methods'             => WP_REST_Server::EDITABLE,
					'callback'            => array( $this, 'update_item' ),
					'permission_callback' => array( $this, 'update_item_permissions_check' ),
					'args'                => $this->get_endpoint_args_for_item_schema( WP_REST_Server::EDITABLE ),
				),
				array(
					'methods'             => WP_REST_Server::DELETABLE,
					'callback'            => array( $this, 'delete_item' ),
					'permission_callback' => array( $this, 'delete_item_permissions_check' ),
					'args'                => array(),
				),
				'schema' => array( $this, 'get_public_item_schema' ),
			)
		);
	}

	public function get_collection_params() {
		$params          = parent::get_collection_params();
		$params['event'] = array(
			'description' => 'Alias of post: terms assigned to this event.',
			'type'        => 'integer',
		);
		return $params;
	}

	public function get_items( $request ) {
		if ( isset( $request['event'] ) && ! isset( $request['post'] ) ) {
			$request['post'] = $request['event'];
		}
		return parent::get_items( $request );
	}

	public function delete_item( $request ) {
		$request['force'] = true;   // the legacy DELETE takes no force: a term is removed for good
		return parent::delete_item( $request );
	}
}

<?php
/**
 * cal/v1 on a subclass of core's posts controller, as plugins commonly extend it: the capability is checked on
 * the ID before the record is looked up (an unknown ID is 403), a trashed record reads as a bare 404, and a
 * DELETE without force answers `[]`. Everything else is core's.
 */

defined( 'ABSPATH' ) || exit;

class SC_Quirky_Cal_Controller extends WP_REST_Posts_Controller {

	/** 403 with this plugin's code; core's own checks (on records that exist) keep theirs. */
	private function forbidden( $message ) {
		return new WP_Error( 'cal-forbidden', $message, array( 'status' => 403 ) );
	}

	public function get_item_permissions_check( $request ) {
		// The capability first: read_post on an ID that names nothing maps to do_not_allow.
		if ( ! current_user_can( 'read_post', (int) $request['id'] ) ) {
			return $this->forbidden( __( 'Sorry, you are not allowed to view this record.' ) );
		}
		return parent::get_item_permissions_check( $request );
	}

	public function update_item_permissions_check( $request ) {
		if ( ! current_user_can( 'edit_post', (int) $request['id'] ) ) {
			return $this->forbidden( __( 'Sorry, you are not allowed to edit this record.' ) );
		}
		return parent::update_item_permissions_check( $request );
	}

	public function delete_item_permissions_check( $request ) {
		if ( ! current_user_can( 'delete_post', (int) $request['id'] ) ) {
			return $this->forbidden( __( 'Sorry, you are not allowed to delete this record.' ) );
		}
		return parent::delete_item_permissions_check( $request );
	}

	public function get_item( $request ) {
		$post = get_post( (int) $request['id'] );
		if ( $post && 'trash' === $post->post_status ) {
			return new WP_REST_Response( null, 404 );
		}
		return parent::get_item( $request );
	}

	public function delete_item( $request ) {
		$post = get_post( (int) $request['id'] );
		if ( ! $post || (bool) $request['force'] || 'trash' === $post->post_status || ! EMPTY_TRASH_DAYS ) {
			return parent::delete_item( $request );   // for good, or 410 rest_already_trashed
		}
		if ( ! wp_trash_post( $post->ID ) ) {
			return new WP_Error( 'cal-could-not-trash', __( 'The record could not be moved to the trash.' ), array( 'status' => 500 ) );
		}
		return rest_ensure_response( array() );
	}
}

add_filter(
	'register_post_type_args',
	function ( $args, $post_type ) {
		if ( in_array( $post_type, array( 'cal_event', 'cal_organizer', 'cal_venue' ), true ) ) {
			$args['rest_controller_class'] = 'SC_Quirky_Cal_Controller';
		}
		return $args;
	},
	10,
	2
);

// WordPress REST wire conventions for the mock server: one import for the core.
export * from './errors.ts';
export * from './request.ts';
export * from './headers.ts';
export * from './pagination.ts';
export * from './envelope.ts';
export * from './options.ts';
export * from '../../../contracts/wordpress/schema/convert.ts';
export * from '../../../contracts/wordpress/schema/index.ts';
export * from '../../../contracts/wordpress/php/index.ts';

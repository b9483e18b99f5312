// The `requests` arg of core's /batch/v1 route (WP_REST_Server::__construct(), sample 71) as the contract writes it
// (JSON Schema 2020-12): the input of the conversion and descriptor tests.
import type { JsonSchema } from '../schema/types.ts';

export const BATCH_REQUESTS: JsonSchema = {
  type: 'array',
  maxItems: 25,
  items: {
    type: 'object',
    properties: {
      method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
      path: { type: 'string' },
      body: { type: 'object', properties: {}, additionalProperties: true },
      headers: { type: 'object', properties: {}, additionalProperties: { type: ['string', 'array'], items: { type: 'string' } } },
    },
    required: ['path'],
  },
};

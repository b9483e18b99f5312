// In a "type": "commonjs" project this file is CommonJS: `import type` of the package's types must work here
// (TS1541 when they were ESM-only declarations), and the types must still refuse what the contract refuses.
import type { components, operations, paths } from 'site-contracts/types';

type EventsQuery = NonNullable<operations['getCalV1Events']['parameters']['query']>;
export const firstPage: EventsQuery = { per_page: 10, order: 'ASC' };
export const eventsPath: keyof paths = '/cal/v1/events';
export type Schemas = keyof components['schemas'];
// @ts-expect-error: per_page is a number
export const wrongType: EventsQuery = { per_page: 'ten' };

// npm run contract:bundle            → writes contracts/openapi.yaml from contracts/spec/
// npm run contract:bundle -- --check → exits 1 when the committed bundle differs from the sources
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { renderBundle } from '../lib/bundle-io.ts';
import { writeOrCheck } from './write-or-check.ts';

const root = new URL('..', import.meta.url).pathname;
writeOrCheck(join(root, 'openapi.yaml'), renderBundle(root, { readFileSync, readdirSync }), process.argv, 'npm run contract:bundle');

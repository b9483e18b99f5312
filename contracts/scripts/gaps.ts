// npm run contract:gaps            → writes contracts/GAPS.md from the bundle's marks
// npm run contract:gaps -- --check → exits 1 when the committed GAPS.md is stale
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseContract } from '../lib/loader.ts';
import { renderGaps } from '../lib/gaps.ts';
import { writeOrCheck } from './write-or-check.ts';

const root = new URL('..', import.meta.url).pathname;
const text = renderGaps(parseContract(readFileSync(join(root, 'openapi.yaml'), 'utf8')));
writeOrCheck(join(root, 'GAPS.md'), text, process.argv, 'npm run contract:gaps');

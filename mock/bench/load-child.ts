// Entry of the load generator's own process: one LoadSpec as JSON in argv, one LoadResult as JSON on stdout.
import { runLoad, type LoadSpec } from './load.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
const result = await runLoad(spec);
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(0);

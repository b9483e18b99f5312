#!/usr/bin/env node
// npm bin entry. The suite is TypeScript run as-is, so tsx's loader is registered before the entry is
// imported; a build step would be one more thing to forget before a release gate runs.
import { register } from 'tsx/esm/api';

register();
const { runFromProcess } = await import('../cli.ts');
await runFromProcess();

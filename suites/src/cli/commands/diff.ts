// `site-contracts diff`: the live root descriptor against the contract. Prints a table, writes
// `diff.json` (the structured differences) and the usual reports as `site-contracts-diff.*`, so that
// --baseline can accept known differences. Exit 0 when identical (or every difference is accepted by
// the baseline), 1 when there are differences, 2 when the target cannot be reached.

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Contract } from '../../../../contracts/lib/loader.ts';
import { diffDescriptor, type DiffResult } from '../../diff/diff.ts';
import { diffCases, renderTable } from '../../diff/table.ts';
import { createClient } from '../../http/client.ts';
import { reachRoot } from '../../http/preflight.ts';
import { redactDeep } from '../../report/redact.ts';
import { buildRun } from '../../report/run.ts';
import { parseFilter, type Filter } from '../../runner/select.ts';
import { reportableOptions, type RunArgs } from '../args.ts';
import type { CommandContext, CommandHandler } from '../context.ts';
import { headerRecord } from '../headers.ts';
import { finishRun, prepareReports } from '../finish.ts';
import { processTestDeps, type TestDeps } from './test.ts';

const DIFF_JSON = 'diff.json';
const DIFF_REPORT_BASENAME = 'site-contracts-diff';

function included(only: Filter, skip: Filter) {
  const hits = (f: Filter, op: Contract['operations'][number]): boolean =>
    f.namespaces.has(op.namespace) || f.operations.has(op.id) || [...f.routes].some((r) => op.path.toLowerCase() === r.toLowerCase() || op.path.toLowerCase().startsWith(`${r.toLowerCase()}/`));
  const targeted = (f: Filter): boolean => f.namespaces.size + f.routes.size + f.operations.size > 0;
  return (op: Contract['operations'][number]): boolean => (!targeted(only) || hits(only, op)) && !(targeted(skip) && hits(skip, op));
}

async function writeDiffJson(d: DiffResult, dir: string, ctx: CommandContext): Promise<string> {
  await ctx.fs.mkdir(dir, { recursive: true });
  const path = join(dir, DIFF_JSON);
  const temp = `${path}.${randomUUID()}.tmp`;
  await ctx.fs.writeFile(temp, JSON.stringify(redactDeep(d, ctx.secrets, { secretHeaders: ctx.secretHeaders }), null, 2) + '\n', 'utf8');
  await ctx.fs.rename(temp, path);
  return path;
}

export function makeDiffCommand(deps: Pick<TestDeps, 'loadContract' | 'dispatcher'> = processTestDeps): CommandHandler<RunArgs> {
  return async (args, ctx) => {
    const contract = deps.loadContract();
    // Checks do not apply to a diff: only namespaces, routes and operationIds select.
    const only = parseFilter(args.only, contract, [], '--only');
    const skip = parseFilter(args.skip, contract, [], '--skip');
    const startedAt = ctx.now();
    const prepared = await prepareReports(args, ctx);
    const client = createClient({
      target: { baseUrl: args.baseUrl, apiRoot: args.apiRoot },
      ...(args.auth ? { credentials: args.auth.credentials } : {}),
      timeoutMs: args.timeoutMs,
      maxRequests: args.maxRequests,
      writes: 'none',
      ...(deps.dispatcher ? { dispatcher: deps.dispatcher } : {}),
      userAgent: `${ctx.tool.name}/${ctx.tool.version}`,
      headers: headerRecord(args.headers),
      redact: { secrets: ctx.secrets, secretHeaders: ctx.secretHeaders },
    });
    let d: DiffResult;
    try {
      const { descriptor } = await reachRoot(client);
      d = diffDescriptor(contract, descriptor, { include: included(only, skip) });
    } finally {
      await client.close();
    }
    ctx.stdout.write(renderTable(d));
    const run = buildRun({
      tool: ctx.tool,
      target: { baseUrl: args.baseUrl, apiRoot: args.apiRoot },
      startedAt,
      finishedAt: ctx.now(),
      seed: args.seed ?? 0,
      options: { ...reportableOptions(args), command: 'diff', summary: d.summary, otherNamespaces: d.otherNamespaces },
      cases: diffCases(d, args.policy),
    });
    const jsonPath = await writeDiffJson(d, args.reportDir, ctx);
    const { code } = await finishRun(run, args, ctx, prepared, { baseName: DIFF_REPORT_BASENAME, alsoWritten: [{ format: 'json', path: jsonPath }] });
    return code;
  };
}

export const diffCommand: CommandHandler<RunArgs> = (args: RunArgs, ctx: CommandContext) => makeDiffCommand()(args, ctx);

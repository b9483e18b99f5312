// Which handler serves an operation, decided once per operation from what the contract says about it
// (kind, resource, namespace) and, for the add-ons, its path.
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { Operation } from '../../../contracts/lib/types.ts';
import { addonHandler } from './addons/index.ts';
import { batchHandler } from './batch.ts';
import { handlePosts } from './calendar/posts.ts';
import { handleTerms } from './calendar/terms.ts';
import { ok, type Handler } from './context.ts';
import type { Discovery } from './discovery.ts';
import { docsHandler } from './docs.ts';

const CALENDAR_NS = new Set(['cal/events/v1', 'cal/v1']);

export interface RegistryDeps {
  contract: Contract;
  discovery: Discovery;
}

export function createRegistry(deps: RegistryDeps): (op: Operation) => Handler | undefined {
  const docs = docsHandler(deps.contract);
  const cache = new Map<Operation, Handler | undefined>();
  const pick = (op: Operation): Handler | undefined => {
    switch (op.kind) {
      case 'root':
        return (ctx) => ok(deps.discovery.root(ctx.links.apiRoot, ctx.links.home));
      case 'index':
        return (ctx) => ok(deps.discovery.namespaceIndex(op.namespace, ctx.links.apiRoot));
      case 'doc':
        return docs;
      case 'batch':
        return batchHandler;
      default:
        break;
    }
    if (CALENDAR_NS.has(op.namespace)) {
      if (op.resource === 'event' || op.resource === 'venue' || op.resource === 'organizer') return handlePosts;
      if (op.resource === 'category' || op.resource === 'tag') return handleTerms;
    }
    return addonHandler(op);
  };
  return (op) => {
    if (!cache.has(op)) cache.set(op, pick(op));
    return cache.get(op);
  };
}

// The calendar's documentation routes (`cal/events/v1/doc`, `cal/v1/docs`). The documents do not show what they
// return; the plugin serves a machine-readable API description, so the mock serves the contract's own OpenAPI
// description restricted to that namespace, with the server URL of the site (remembered per namespace and API root in
// the mock's docs memo).
import type { Contract } from '../../../contracts/lib/loader.ts';
import type { JsonSchema } from '../../../contracts/lib/types.ts';
import { ok, type HandlerCtx, type Reply } from './context.ts';

/** The documentation operation of namespace `ns`, over the contract. */
export function docsHandler(contract: Contract, ns: string): (ctx: HandlerCtx) => Reply {
  return (ctx) => {
    const doc = ctx.memos.docs.get(`${ns} ${ctx.links.apiRoot}`, () => {
      const src = contract.doc;
      const paths: JsonSchema = {};
      for (const [path, item] of Object.entries(src.paths as Record<string, JsonSchema>)) {
        if (path === `/${ns}` || path.startsWith(`/${ns}/`)) paths[path] = item;
      }
      return {
        openapi: src.openapi,
        info: { ...(src.info as JsonSchema), title: `${ns} — ${(src.info as JsonSchema).title as string}` },
        servers: [{ url: ctx.links.apiRoot.replace(/\/$/, '') }],
        paths,
        components: src.components,
      };
    });
    return ok(doc);
  };
}

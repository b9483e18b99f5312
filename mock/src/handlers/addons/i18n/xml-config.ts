// Translation add-on (001 §4.3), `i18n/v1`: the site's custom XML configuration, kept when it is well-formed.
import { ok, type HandlerCtx, type Reply } from '../../context.ts';
import { arg, err, str } from '../util.ts';

const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isNameChar = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d;

/**
 * Elements open and close in order; tags, processing instructions and comments end. One pass: each `<` is read up to
 * its `>` (or its `?>`, `-->`).
 */
function isWellFormedXml(xml: string): boolean {
  const stack: string[] = [];
  for (let lt = xml.indexOf('<'); lt >= 0; ) {
    const special = xml.startsWith('<?', lt) ? '?>' : xml.startsWith('<!--', lt) ? '-->' : undefined;
    if (special) {
      const end = xml.indexOf(special, lt + 2);
      if (end < 0) return false;
      lt = xml.indexOf('<', end + special.length);
      continue;
    }
    let j = lt + 1;
    const closing = xml[j] === '/';
    if (closing) j++;
    if (!isNameStart(xml.charCodeAt(j))) {
      lt = xml.indexOf('<', lt + 1);
      continue;
    }
    const nameStart = j;
    while (isNameChar(xml.charCodeAt(j))) j++;
    const gt = xml.indexOf('>', j);
    if (gt < 0) return false;
    const name = xml.slice(nameStart, j);
    const selfClosing = gt > j && xml[gt - 1] === '/';
    if (!selfClosing) {
      if (closing) {
        if (stack.pop() !== name) return false;
      } else stack.push(name);
    }
    lt = xml.indexOf('<', gt + 1);
  }
  return stack.length === 0;
}

/** The configuration a request sends, as `xml` or as `config`. */
const sentXml = (ctx: HandlerCtx): string | undefined => str(arg(ctx, 'xml')) ?? str(arg(ctx, 'config'));

function save(ctx: HandlerCtx): Reply {
  const xml = sentXml(ctx);
  if (xml === undefined) return err('i18n_missing_xml', 'Send the configuration as `xml`.', 400);
  if (!isWellFormedXml(xml)) return err('i18n_invalid_xml', 'The configuration is not well-formed XML.', 400);
  ctx.store.set('customXmlConfig', xml);
  return ok({ success: true, xml });
}

function validate(ctx: HandlerCtx): Reply {
  const valid = isWellFormedXml(sentXml(ctx) ?? ctx.store.get('customXmlConfig'));
  return ok({ valid, errors: valid ? [] : [{ message: 'The configuration is not well-formed XML.' }] });
}

/** The custom XML configuration's operations, each its own handler. */
export const xmlConfigHandlers = {
  read: (ctx: HandlerCtx): Reply => ok({ xml: ctx.store.get('customXmlConfig') }),
  save,
  validate,
} as const;

// XML 1.0 text that any JUnit consumer can parse, whatever bytes a server sent back. Characters XML
// 1.0 forbids outright (most C0 controls, U+FFFE/U+FFFF, unpaired surrogates) cannot even be written
// as character references, so they are spelled out as visible `\uXXXX` instead of being dropped.

const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visible(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

export function xmlText(s: string): string {
  return s.replace(FORBIDDEN, visible).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values additionally keep tabs and line breaks, which parsers would otherwise normalize to spaces. */
export function xmlAttr(s: string): string {
  return xmlText(s)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

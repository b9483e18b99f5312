// PHP 8.2's strip_tags() without allowed tags (ext/standard/string.c, php_strip_tags_ex()): one pass of its state
// machine. State 0 is text; 1 an HTML tag, where quotes hide a `>` and a nested `<` must be closed too; 2 a `<?`
// processing instruction (ended by `?>` outside brackets and quotes); 3 a `<!` declaration; 4 a `<!--` comment (ended by
// `-->`). A `<` followed by whitespace is text, NUL bytes go. Each character is read once.

/** C's isspace(): space, \t, \n, \v, \f, \r. */
const isCSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';

export function phpStripTags(s: string): string {
  let out = '';
  let state = 0;
  let depth = 0;
  let inQ = '';
  let lc = '';
  let br = 0;
  let isXml = false;
  const n = s.length;
  // `*(p-k)`: the character k before p, '' before the start.
  const back = (p: number, k: number): string => (p - k >= 0 ? s[p - k]! : '');
  for (let p = 0; p < n; p++) {
    const c = s[p]!;
    if (state === 0) {
      if (c === '\0') continue;
      if (c === '<') {
        if (inQ) continue;
        if (isCSpace(s[p + 1])) {
          out += c;
          continue;
        }
        lc = '<';
        state = 1;
        continue;
      }
      if (c === '>') {
        if (depth) {
          depth--;
          continue;
        }
        if (inQ) continue;
        out += c;
        continue;
      }
      out += c;
      continue;
    }
    if (state === 1) {
      if (c === '<') {
        if (inQ || isCSpace(s[p + 1])) continue;
        depth++;
      } else if (c === '>') {
        if (depth) depth--;
        else if (!inQ) {
          lc = '>';
          if (isXml && back(p, 1) === '-') continue;
          inQ = '';
          state = 0;
          isXml = false;
        }
      } else if (c === '"' || c === "'") {
        if (p !== 0 && (!inQ || c === inQ)) inQ = inQ ? '' : c;
      } else if (c === '!') {
        if (back(p, 1) === '<') {
          state = 3;
          lc = c;
        }
      } else if (c === '?') {
        if (back(p, 1) === '<') {
          br = 0;
          state = 2;
        }
      }
      continue;
    }
    if (state === 2) {
      if (c === '(') {
        if (lc !== '"' && lc !== "'") {
          lc = '(';
          br++;
        }
      } else if (c === ')') {
        if (lc !== '"' && lc !== "'") {
          lc = ')';
          br--;
        }
      } else if (c === '>') {
        if (depth) depth--;
        else if (!inQ && !br && lc !== '"' && back(p, 1) === '?') {
          inQ = '';
          state = 0;
        }
      } else if (c === '"' || c === "'") {
        if (p >= 1 && back(p, 1) !== '\\') {
          if (lc === c) lc = '';
          else if (lc !== '\\') lc = c;
          if (p !== 0 && (!inQ || c === inQ)) inQ = inQ ? '' : c;
        }
      } else if ((c === 'l' || c === 'L') && p > 4 && /^<\?xm$/i.test(s.slice(p - 4, p)) && back(p, 3) === '?') {
        state = 1;
        isXml = true;
      }
      continue;
    }
    if (state === 3) {
      if (c === '>') {
        if (depth) depth--;
        else if (!inQ) {
          inQ = '';
          state = 0;
        }
      } else if (c === '"' || c === "'") {
        if (p !== 0 && back(p, 1) !== '\\' && (!inQ || c === inQ)) inQ = inQ ? '' : c;
      } else if (c === '-') {
        if (p >= 2 && back(p, 1) === '-' && back(p, 2) === '!') state = 4;
      } else if ((c === 'E' || c === 'e') && p > 6 && s.slice(p - 6, p).toLowerCase() === 'doctyp') {
        state = 1;
      }
      continue;
    }
    // state 4: a comment, to the first `-->` outside quotes.
    if (c === '>' && !inQ && p >= 2 && back(p, 1) === '-' && back(p, 2) === '-') {
      inQ = '';
      state = 0;
    }
  }
  return out;
}

// The one-pass scanners give exactly what the regular expressions they replace give (compared on generated
// strings over the characters that matter), and stay linear where the regular expressions are quadratic.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removePercentOctets, removeScriptStyle, splitTags, stripAngleTags } from './linear-text.ts';

const SEED = Number(process.env.FC_SEED ?? 20261123);
const text = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 40 }).map((a) => a.join(''));

/** WordPress's loop, as sanitize_text_field() writes it: the first `%xx`, every copy of it removed, again. */
function percentLoop(s0: string): { text: string; found: boolean } {
  let s = s0;
  let found = false;
  for (let m = /%[a-f0-9]{2}/i.exec(s); m; m = /%[a-f0-9]{2}/i.exec(s)) {
    s = s.replaceAll(m[0], '');
    found = true;
  }
  return { text: s, found };
}

describe('each scanner equals its regular expression', () => {
  it('stripAngleTags = replace(/<[^>]*>/g, "")', () => {
    fc.assert(fc.property(text(['<', '>', 'a', ' ', '/']), (s) => stripAngleTags(s) === s.replace(/<[^>]*>/g, '')), { seed: SEED, numRuns: 3000 });
  });

  it('splitTags = split(/(<.*?>)/)', () => {
    fc.assert(fc.property(text(['<', '>', 'a', '\n', '\r', '\u2028', ' ']), (s) => {
      expect(splitTags(s)).toEqual(s.split(/(<.*?>)/));
    }), { seed: SEED, numRuns: 3000 });
  });

  it('removeScriptStyle = replace(/<(script|style)[^>]*?>.*?<\\/\\1>/gis, "")', () => {
    const pieces = ['<script>', '<SCRIPT a>', '</script>', '</Script>', '<style>', '</style>', '</STYLE>', '<scripts>', '<', '>', '/', 'x', '\n', '</', 'script', 'style', 'ſcript'];
    fc.assert(fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((a) => a.join('')), (s) => removeScriptStyle(s) === s.replace(/<(script|style)[^>]*?>.*?<\/\1>/gis, '')), { seed: SEED, numRuns: 5000 });
  });

  it("removePercentOctets = sanitize_text_field()'s %xx loop", () => {
    fc.assert(fc.property(text(['%', '4', '1', 'a', 'F', 'g', ' ']), (s) => {
      expect(removePercentOctets(s)).toEqual(percentLoop(s));
    }), { seed: SEED, numRuns: 5000 });
    expect(removePercentOctets('%%4141x')).toEqual({ text: 'x', found: true });
  });
});

describe('and stays linear where the regular expression is quadratic', () => {
  // 200,000 characters: each regular expression below takes seconds on these; the scanners take milliseconds.
  const N = 200_000;
  // CPU time, not the wall clock: on a shared machine waiting for a core says nothing about the scanner.
  const timed = (f: () => unknown) => {
    const before = process.cpuUsage();
    f();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  it.each([
    ['stripAngleTags', () => stripAngleTags('<'.repeat(N))],
    ['splitTags', () => splitTags('<'.repeat(N))],
    ['splitTags, a line end before each >', () => splitTags('<\n'.repeat(N / 2) + '>')],
    ['removeScriptStyle', () => removeScriptStyle('<script>'.repeat(N / 8))],
    ['removePercentOctets', () => removePercentOctets('%'.repeat(N / 3) + '41'.repeat(N / 3))],
  ])('%s', (_name, f) => {
    expect(timed(f)).toBeLessThan(250);
  });
});

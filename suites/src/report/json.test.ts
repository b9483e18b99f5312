import { describe, expect, it } from 'vitest';
import { parseRunJson, renderJson, renderJsonFull, ReportFormatError } from './json.ts';
import { sampleRun } from './sample.ts';

describe('JSON report', () => {
  it('round-trips the run result whole with json-full', () => {
    const run = sampleRun();
    expect(parseRunJson(renderJsonFull(run), 'r.json')).toEqual(run);
  });

  it('round-trips the failing cases whole and the passed ones short with json', () => {
    const run = sampleRun();
    const back = parseRunJson(renderJson(run), 'r.json');
    const { cases, ...rest } = back;
    const { cases: original, ...before } = run;
    expect(rest).toEqual(before);
    expect(new Set(cases.map((c) => c.id))).toEqual(new Set(original.map((c) => c.id)));
    for (const c of original.filter((c) => c.status !== 'passed' && c.status !== 'skipped')) expect(cases.find((k) => k.id === c.id)).toEqual(c);
  });

  it('refuses what is not a report of this version, naming the file', () => {
    expect(() => parseRunJson('nope', 'a.json')).toThrow(/a\.json: not JSON/);
    expect(() => parseRunJson('[]', 'a.json')).toThrow(ReportFormatError);
    expect(() => parseRunJson('{"reportVersion":99,"cases":[]}', 'a.json')).toThrow(/a\.json: report version 99/);
    expect(() => parseRunJson('{"reportVersion":2}', 'a.json')).toThrow(/missing "cases"/);
    expect(() => parseRunJson('{"reportVersion":2,"tool":{},"target":{},"cases":[{"id":1}]}', 'a.json')).toThrow(/cases\[0\]/);
  });
});

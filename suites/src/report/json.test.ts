import { describe, expect, it } from 'vitest';
import { parseRunJson, renderJson, ReportFormatError } from './json.ts';
import { sampleRun } from './sample.ts';

describe('JSON report', () => {
  it('round-trips the run result', () => {
    const run = sampleRun();
    expect(parseRunJson(renderJson(run), 'r.json')).toEqual(run);
  });

  it('refuses what is not a report of this version, naming the file', () => {
    expect(() => parseRunJson('nope', 'a.json')).toThrow(/a\.json: not JSON/);
    expect(() => parseRunJson('[]', 'a.json')).toThrow(ReportFormatError);
    expect(() => parseRunJson('{"reportVersion":99,"cases":[]}', 'a.json')).toThrow(/a\.json: report version 99/);
    expect(() => parseRunJson('{"reportVersion":1}', 'a.json')).toThrow(/missing "cases"/);
    expect(() => parseRunJson('{"reportVersion":1,"tool":{},"target":{},"cases":[{"id":1}]}', 'a.json')).toThrow(/cases\[0\]/);
  });
});

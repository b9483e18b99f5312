import { describe, expect, it } from 'vitest';
import type { Exchange } from '../http/types.ts';
import { allowProblem } from './allow_header.ts';

function get(url: string, headers: Record<string, string>): Exchange {
  return {
    request: { method: 'GET', url, headers: {}, body: '' } as unknown as Exchange['request'],
    response: { status: 200, headers, body: '[]' },
    durationMs: 1,
  };
}

describe('allowProblem', () => {
  const base = 'http://127.0.0.1:1/wp-json/cal/v1/events';
  it('fails a read answered without Allow, and passes it with GET listed', () => {
    expect(allowProblem(get(base, {}), ['GET', 'POST'])).toMatch(/no Allow header/);
    expect(allowProblem(get(base, { allow: 'GET' }), ['GET', 'POST'])).toBeUndefined();
  });
  it('fails an Allow listing a method the route does not serve', () => {
    expect(allowProblem(get(base, { allow: 'GET, DELETE' }), ['GET', 'POST'])).toMatch(/DELETE/);
  });
  it('does not judge an _envelope answer, whose headers WordPress moves into the body', () => {
    expect(allowProblem(get(`${base}?_envelope`, {}), ['GET', 'POST'])).toBeUndefined();
    expect(allowProblem(get(`${base}?per_page=1&_envelope=1`, {}), ['GET', 'POST'])).toBeUndefined();
    // A parameter merely starting with the word is no envelope.
    expect(allowProblem(get(`${base}?_envelopes=1`, {}), ['GET', 'POST'])).toMatch(/no Allow header/);
  });
});

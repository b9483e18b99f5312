import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const here = (f: string) => readFileSync(new URL(f, import.meta.url), 'utf8');

it('the README example is example.test.ts, which runs', () => {
  const block = /## Example \(runs as `example\.test\.ts`\)\n\n```ts\n([\s\S]*?)```/.exec(here('./README.md'))?.[1];
  const example = here('./example.test.ts').split('\n').slice(1).join('\n');
  expect(block).toBe(example);
});

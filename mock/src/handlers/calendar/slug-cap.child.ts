// Child process of slug-cap.test.ts: runs the named cases against a fresh mock each, printing one line per case
// finished (`done <case> <json>`). A case that never finishes (the process spinning) is the parent's to kill.
import { createMock } from '../../index.ts';
import { SLUG_CAP_CASES, runSlugCapCase } from './slug-cap.cases.ts';

const names = JSON.parse(process.argv[2] ?? '[]') as string[];
const mock = await createMock({ seed: 1, clock: { now: () => Date.UTC(2026, 10, 22, 12) } });
process.stdout.write('ready\n');
for (const name of names) {
  const c = SLUG_CAP_CASES.find((x) => x.name === name);
  if (!c) throw new Error(`unknown case ${name}`);
  mock.reset();
  const result = runSlugCapCase(mock, c);
  process.stdout.write(`done ${name} ${JSON.stringify(result)}\n`);
}

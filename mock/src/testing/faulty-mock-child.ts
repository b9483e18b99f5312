// A mock over HTTP whose state file's journal refuses every Nth write with ENOSPC: the kill -9 test's faulty disk
// (kill9.test.ts). `node --import tsx faulty-mock-child.ts STATE_FILE N`; prints the URL once it listens.
import { createMock, listen } from '../index.ts';
import { faultyJournalFs } from './faulty-fs.ts';

const [stateFile, every] = process.argv.slice(2);
let writes = 0;
const mock = await createMock({ stateFile: stateFile!, stateFs: faultyJournalFs(() => (++writes % Number(every) === 0 ? 'ENOSPC' : undefined)) });
const server = await listen((req) => mock.respond(req), { port: 0, host: '127.0.0.1' });
process.stdout.write(`listening on ${server.url}\n`);

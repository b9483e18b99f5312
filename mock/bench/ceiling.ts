// The ceiling: a bare node:http server answering every request with one fixed body. Nothing a WordPress stand-in
// does can be faster on this machine, so the mock's figures are read against it.
// `ceiling.ts <port> [bodyFile]`: with bodyFile, the answer is that file's bytes (the bench gives it the mock's own
// answer to the scenario, so the ceiling sends the same bytes); without, a small JSON body.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const file = process.argv[3];
const body = file ? readFileSync(file) : Buffer.from(JSON.stringify({ id: 1, title: { rendered: 'Ceiling' }, status: 'publish' }));
const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': String(body.length) });
    res.end(body);
  });
});
server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : port}\n`);
});

// The ceiling: a bare node:http server answering every request with the same JSON body (small by default). Nothing a
// WordPress stand-in does can be faster on this machine, so the mock's figures are read against it.
// `ceiling.ts <port> [bodyBytes]`: with bodyBytes, the body is padded to that size (the bench uses the size of the
// mock's 25-create batch answer, to show what sending such an answer costs by itself).
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const size = Number(process.argv[3] ?? 0);
const small = JSON.stringify({ id: 1, title: { rendered: 'Ceiling' }, status: 'publish' });
const body = size > small.length ? JSON.stringify({ id: 1, title: { rendered: 'Ceiling' }, status: 'publish', pad: 'x'.repeat(size - small.length - 9) }) : small;
const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' });
    res.end(body);
  });
});
server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : port}\n`);
});

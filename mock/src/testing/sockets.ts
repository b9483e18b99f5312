// Raw client sockets for the node adapter's tests: a request exactly as written, and a client that stops reading or
// sending exactly where told.
import { connect, type Socket } from 'node:net';

/** A connected socket to the server at `url` (errors, such as a reset after a refusal, are the test's to read). */
export function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = connect(Number(port), hostname, () => resolve(s));
    s.on('error', () => undefined);
  });
}

// A port nobody listens on at this moment, for a server the bench starts in a child process (which cannot hand its
// port back before it prints it).
import { createServer } from 'node:net';

export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

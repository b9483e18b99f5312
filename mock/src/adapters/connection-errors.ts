// What a client gets when node's HTTP parser refuses its request before the mock sees it: headers over node's 16 KiB
// (a URL of 20,000 characters, a query of 5,000 params), a request that took too long to arrive, a malformed one.
// Node answered these with a status line and no body at all; a site's server (Apache in front of WordPress) answers
// them with a short HTML page, and so does the mock now, with node's status codes.
import type { Duplex } from 'node:stream';

const PAGES: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request line and headers together are larger than the 16,384 bytes this server reads; a long query can go in the body of a POST sent to ?_method=GET.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Server timeout waiting for the HTTP request from the client.'],
};
const BAD_REQUEST: [number, string, string] = [400, 'Bad Request', 'Your browser sent a request that this server could not understand.'];

/** The status, reason and HTML page for an error code (a body too slow to arrive is ERR_HTTP_REQUEST_TIMEOUT too). */
export function errorPage(code: string | undefined): { status: number; title: string; body: string } {
  const [status, title, text] = (code !== undefined ? PAGES[code] : undefined) ?? BAD_REQUEST;
  return { status, title, body: `<!DOCTYPE html><html><head><title>${status} ${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>\n` };
}

/** The raw answer for a parser error code: status line, headers and an HTML page, connection closed. */
function connectionErrorAnswer(code: string | undefined): string {
  const { status, title, body } = errorPage(code);
  return `HTTP/1.1 ${status} ${title}\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** The server's 'clientError' listener: as node's own (nothing once an answer has begun on the socket), with a page. */
export function onClientError(err: Error & { code?: string }, socket: Duplex & { bytesWritten?: number }): void {
  if (err.code !== 'ECONNRESET' && socket.writable && (socket.bytesWritten ?? 0) === 0) socket.write(connectionErrorAnswer(err.code));
  socket.destroy();
}

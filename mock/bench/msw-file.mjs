// One test file's MSW set-up, as a frontend's vitest file does it, in a process of its own (vitest's forks pool runs
// each file in a fresh one): `package` imports msw and site-contracts' mock, creates the mock and its handlers;
// `plain` imports msw with two hand-written handlers. Both then answer one GET and one POST through fetch(). Prints
// one JSON line: milliseconds from the process's start to the answers, and CPU time. The modules come as URLs in
// argv (the installed build's, or the sources' under tsx), so this file names no module of the project.
const [mode, mockUrl, mswAdapterUrl] = process.argv.slice(2);
const origin = 'https://events.example.org';
const { setupServer } = await import('msw/node');
const { http, HttpResponse } = await import('msw');
let handlers;
let mock;
const t0 = performance.now();
if (mode === 'package') {
  const { createMock } = await import(mockUrl);
  const { wordpressHandlers } = await import(mswAdapterUrl);
  mock = await createMock();
  handlers = wordpressHandlers(mock, { origin });
} else {
  handlers = [
    http.get(`${origin}/wp-json/cal/v1/events`, () => HttpResponse.json([{ id: 1 }, { id: 2 }, { id: 3 }], { headers: { 'X-WP-Total': '3' } })),
    http.post(`${origin}/wp-json/cal/v1/events`, async ({ request }) => HttpResponse.json({ id: 9, ...(await request.json()) }, { status: 201 })),
  ];
}
const t1 = performance.now();
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: 'error' });
const list = await fetch(`${origin}/wp-json/cal/v1/events?per_page=3`);
await list.json();
const created = await fetch(`${origin}/wp-json/cal/v1/events`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ title: 'Bench', start_date: '2026-05-01 20:00:00', end_date: '2026-05-01 22:00:00' }),
});
await created.json();
const t2 = performance.now();
server.close();
await mock?.close?.();
const cpu = process.cpuUsage();
process.stdout.write(
  JSON.stringify({ mode, status: [list.status, created.status], totalMs: Math.round(t2), handlersMs: Math.round(t1 - t0), answersMs: Math.round(t2 - t1), cpuMs: Math.round((cpu.user + cpu.system) / 1000) }) + '\n',
);

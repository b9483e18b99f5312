// A small frontend, as a team would write it with plain fetch: it lists events, filters them, creates one, reads
// it and one of the site's own, deletes its own and reads it again (a 404), and reads the legacy list an older
// widget uses. Recorded against the mock (mock --record), it is the
// recording `test --calls` replays in its tests and in CI (.ci/calls/record.ts).

/** Sends the client's calls to the REST root under `base` (`http://127.0.0.1:4010`); `auth`: an Authorization header, if any. */
export async function smallClient(base: string, auth?: string): Promise<void> {
  const api = `${base}/wp-json/cal/v1/events`;
  const headers: Record<string, string> = auth ? { authorization: auth } : {};
  const read = async (url: string): Promise<unknown> => (await fetch(url, { headers })).json();
  const listed = (await read(`${api}?per_page=3`)) as { id: number }[];
  await read(`${api}?search=festival&per_page=5`);
  await read(`${api}?orderby=title&order=DESC&per_page=2`);
  const created = await fetch(api, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Frontend launch party', content: 'Drinks on the roof.', status: 'publish', start_date: '2027-03-04 18:00:00', end_date: '2027-03-04 21:00:00' }),
  });
  const id = ((await created.json()) as { id: number }).id;
  await read(`${api}/${id}`);
  if (listed[0]) await read(`${api}/${listed[0].id}`);
  await (await fetch(`${api}/${id}?force=true`, { method: 'DELETE', headers })).text();
  // The page of a deleted event: the client shows "not found" on the 404.
  await (await fetch(`${api}/${id}`, { headers })).text();
  // The legacy list an older widget still reads.
  await read(`${base}/wp-json/cal/events/v1/events?per_page=2`);
}

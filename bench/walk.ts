import http from 'node:http';

/** One keep-alive connection for a walk, as an exporting client would hold. */
const walkAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** GETs `url`: its status and its body as the chunks that arrived (nothing copied or decoded yet). */
function getChunks(url: string, headers: Record<string, string>): Promise<{ status: number; chunks: Buffer[] }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: walkAgent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, chunks }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The last `bytes` bytes of a body as text (all of it for Infinity). */
function tailOf(chunks: Buffer[], bytes: number): string {
  const kept: Buffer[] = [];
  let length = 0;
  for (let i = chunks.length - 1; i >= 0 && length < bytes; i--) {
    kept.unshift(chunks[i]!);
    length += chunks[i]!.length;
  }
  const tail = Buffer.concat(kept);
  return tail.subarray(Math.max(0, tail.length - bytes)).toString();
}

/**
 * Walks a list sequentially at limit 1000, returning rows/s and the cursor of a page `deep` rows in.
 * Like any load generator it measures the server, not the client: every byte of every page is
 * read, but only the end of each body is decoded, to take the cursor (both servers write
 * `"nextCursor"` last); full pages count `limit` rows and only the last page is parsed. The caller
 * checks the total against the database, which a short or missing page would break.
 */
export async function walk(
  first: string,
  next: (cursor: string) => string,
  headers: Record<string, string>,
  deep: number,
  onPage: () => boolean | void,
) {
  const limit = Number(new URL(first).searchParams.get('limit'));
  const started = performance.now();
  let rows = 0;
  let deepCursor: string | null = null;
  let url: string | null = first;
  while (url) {
    const { status, chunks } = await getChunks(url, headers);
    const tail = tailOf(chunks, 600);
    if (status !== 200) throw new Error(`${status} from ${url}: ${tail.slice(-200)}`);
    const cursor = /"nextCursor":(?:"([^"]*)"|null)}$/.exec(tail)?.[1] ?? null;
    rows += cursor ? limit : (JSON.parse(tailOf(chunks, Infinity)) as { data: unknown[] }).data.length;
    if (deepCursor === null && rows >= deep && cursor) deepCursor = cursor;
    url = cursor ? next(cursor) : null;
    // onPage may end the walk early (false), e.g. when profiling for a fixed time.
    if (onPage() === false) break;
  }
  return { rows, rowsPerSecond: rows / ((performance.now() - started) / 1000), deepCursor };
}

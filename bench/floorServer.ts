import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ReadService, SqliteExecutor } from '@gp-gateway/agent';
import type { ObjectName, Position } from '@gp-gateway/protocol';

/**
 * The floor the gateway is measured against: a minimal node:http server answering the same reads
 * from the same database in its own process, through the same catalogue, SQL and row encoding as
 * the agent, with no gateway, no agent hop, no auth and no signed cursors.
 * GET /v1/{object}?limit=N&after=<base64url of the position's JSON>  and  GET /v1/{object}/{id}
 */
const [dir, portArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: floorServer.ts <demo dir> [port]');
const service = new ReadService(new SqliteExecutor({ dir }));

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://floor');
  const [, version, object, id] = url.pathname.split('/');
  const answer = async () => {
    if (version !== 'v1' || !object) throw new Error('no route');
    if (id !== undefined) {
      const result = await service.handle({ kind: 'get', object: object as ObjectName, company: 'TWO', id: decodeURIComponent(id) });
      return `{"data":${result.payload}}`;
    }
    const after = url.searchParams.get('after');
    const result = await service.handle({
      kind: 'list',
      object: object as ObjectName,
      company: 'TWO',
      filters: {},
      limit: Number(url.searchParams.get('limit') ?? 100),
      after: after ? (JSON.parse(Buffer.from(after, 'base64url').toString('utf8')) as Position) : null,
    });
    const next = result.next ? Buffer.from(JSON.stringify(result.next)).toString('base64url') : null;
    return `{"data":${result.payload},"nextCursor":${JSON.stringify(next)}}`;
  };
  answer().then(
    (body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    (error: Error) => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.message })),
  );
});
server.listen(Number(portArg ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});

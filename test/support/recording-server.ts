// The base of the fakes whose tests assert on the requests they receive: an HTTP server that reads
// each request's body, records the request, then lets its handler answer.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export function recordingServer(requests: RecordedRequest[], handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Server {
  return createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body });
      handle(req, res, body);
    });
  });
}

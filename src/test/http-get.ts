// One request to a server the tests started on loopback, its whole answer read as text.
import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

export function httpGet(port: number, path: string, opts: { host?: string; method?: string; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: { host: opts.host ?? `127.0.0.1:${port}`, ...opts.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

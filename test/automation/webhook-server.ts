import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: ReceivedRequest, res: ServerResponse) => void;

/** A real HTTP server on loopback that keeps every request; `on(path, handler)` decides the answers. */
export class WebhookServer {
  readonly requests: ReceivedRequest[] = [];
  private readonly handlers = new Map<string, Handler>();
  private server!: http.Server;
  port = 0;

  static async start(): Promise<WebhookServer> {
    const s = new WebhookServer();
    s.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const received = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        s.requests.push(received);
        const handler =
          s.handlers.get(received.path.split('?')[0]!) ?? ((_r: ReceivedRequest, out: ServerResponse) => json(out, 200, { ok: true }));
        handler(received, res);
      });
    });
    await new Promise<void>((resolve) => s.server.listen(0, '127.0.0.1', resolve));
    s.port = (s.server.address() as AddressInfo).port;
    return s;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  on(path: string, handler: Handler): void {
    this.handlers.set(path, handler);
  }

  to(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

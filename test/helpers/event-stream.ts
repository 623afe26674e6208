import http from 'node:http';

/**
 * A page's Server-Sent Events stream (`GET /events` of the mail and webhook captures), opened as a browser's
 * EventSource opens it: resolves once the server has answered, with the request, which the caller destroys.
 */
export function openEventStream(port: number): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/events', headers: { accept: 'text/event-stream' } }, (res) => {
      res.once('data', () => resolve(req));
      res.once('error', reject);
    });
    req.once('error', reject);
  });
}

import type { RequestListener } from 'node:http';
import inject = require('light-my-request');

/** What `koa.callback()` gives: the app as a plain Node request listener. */
interface Listening {
  callback(): RequestListener;
}

const listeners = new WeakMap<Listening, RequestListener>();
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * Hands a fetch `Request` to the app in this process, as if it had arrived over HTTP, through every middleware
 * (request id, access log, authentication, rate limit, validation, idempotency, error envelope), and returns
 * its answer as a fetch `Response`. The MCP endpoint's tool calls go this way (docs/mcp.md).
 */
export function inProcess(app: Listening): (request: Request) => Promise<Response> {
  return async (request) => {
    let listener = listeners.get(app);
    if (!listener) listeners.set(app, (listener = app.callback()));
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const options: inject.InjectOptions = {
      method: request.method as inject.InjectOptions['method'],
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      ...(payload ? { payload } : {}),
    };
    const answer: inject.Response = await inject(listener, options);
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, String(one));
    }
    return new Response(NO_BODY.has(answer.statusCode) ? null : answer.rawPayload, { status: answer.statusCode, headers });
  };
}

import type { Method } from '../../http/route';
import type { Operation } from './catalog';
import { answerOf, failureOf, requestOf, type ApiAnswer, type ApiFailure, type Dispatch } from './request';

/** A failed call, carrying the API's error envelope. */
export class ApiCallError extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

/**
 * The API as the MCP server and the CLI reach it: its operations, and a way to send requests (over HTTP to a
 * server, or to the app in this process) with the caller's headers (the key).
 */
export class AgentApi {
  constructor(
    readonly operations: readonly Operation[],
    private readonly dispatch: Dispatch,
    private readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  byName(name: string): Operation | undefined {
    return this.operations.find((op) => op.name === name);
  }

  /** The operation of a route, for the composed tools, which name routes by their method and path. */
  route(method: Method, path: string): Operation {
    const op = this.operations.find((o) => o.method === method && o.path === path);
    if (!op) throw new Error(`no operation ${method.toUpperCase()} ${path}`);
    return op;
  }

  async call(op: Operation, args: Record<string, unknown>): Promise<ApiAnswer> {
    return answerOf(await this.dispatch(await requestOf(op, args, this.baseUrl, this.headers)));
  }

  /** The body of a successful call, or an ApiCallError with the API's error. */
  async data<T = unknown>(method: Method, path: string, args: Record<string, unknown> = {}): Promise<T> {
    const answer = await this.call(this.route(method, path), args);
    if (!answer.ok) throw new ApiCallError(failureOf(answer));
    return answer.body as T;
  }

  /** A GET of a path outside the operations (the OpenAPI document). */
  async get(path: string): Promise<ApiAnswer> {
    const url = new URL(path.replace(/^\//, ''), this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    return answerOf(await this.dispatch(new Request(url, { headers: this.headers })));
  }
}

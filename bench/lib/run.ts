import autocannon from 'autocannon';

export interface BenchSpec {
  /** The label the figures are printed under. */
  name: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  /** Builds each request's JSON body, so that requests need not repeat one (unique emails, say). */
  body?: () => unknown;
  durationSeconds?: number;
  connections?: number;
  /** A fixed rate in requests per second over all connections, for latency at a given load; default as fast as possible. */
  rate?: number;
}

export interface BenchFigures {
  name: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  /** Responses per status code, e.g. `{ 200: 9000, 429: 12 }`. */
  statuses: Record<string, number>;
}

/** Loads one endpoint with autocannon for a while, then prints and returns what it measured. */
export async function runBench(spec: BenchSpec): Promise<BenchFigures> {
  const { body } = spec;
  const durationSeconds = spec.durationSeconds ?? 15;
  const connections = spec.connections ?? 10;
  const pace = spec.rate ? `, ${spec.rate} req/s` : '';
  console.log(`${spec.name}: ${durationSeconds} s, ${connections} connections${pace}, ${spec.method ?? 'GET'} ${spec.url}`);
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...spec.headers },
    duration: durationSeconds,
    connections,
    ...(spec.rate ? { overallRate: spec.rate } : {}),
    ...(body ? { requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }] } : {}),
  });
  const figures: BenchFigures = {
    name: spec.name,
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0])),
  };
  console.log(
    `  ${figures.requestsPerSecond.toFixed(1)} req/s | latency p50 ${figures.latencyP50Ms} ms, p99 ${figures.latencyP99Ms} ms | ` +
      `${figures.requests} requests, ${figures.errors} errors, ${figures.non2xx} non-2xx | by status ${JSON.stringify(figures.statuses)}`,
  );
  return figures;
}

/**
 * The agent surface's cost (docs/mcp.md, docs/cli.md): the API's CPU per request of a tool call over POST /mcp
 * beside the same operation over plain HTTP, measured in the same run (the HTTP request is the calibration:
 * the tool call adds the JSON-RPC message, a server and transport per message, and the in-process request),
 * plus tools/list; then the CPU of one `postwire` CLI command from start to exit. `BENCH_RUNS` requests each
 * (default 1,000), one at a time, after 100 to warm up. The API runs in its own process on BENCH_PORT (default
 * 3160) over `postwire_bench`, without its rate limit.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from '../scripts/lib/paths';
import { startApiProcess } from './lib/api-process';
import { serverCpuMs, treeCpuMs } from './lib/cpu';
import { openBenchDatabase } from './lib/database';
import { createTenant } from './lib/tenant';

const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const CLI_RUNS = Number(process.env.BENCH_CLI_RUNS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 3160);

type Request = () => Promise<Response>;

async function measure(name: string, apiPid: number, request: Request): Promise<number> {
  const once = async () => {
    const res = await request();
    const text = await res.text();
    if (!res.ok || text.includes('"isError":true')) throw new Error(`${name} answered ${res.status}: ${text.slice(0, 300)}`);
  };
  for (let i = 0; i < 100; i++) await once();
  const cpu = treeCpuMs(apiPid);
  const latencies: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await once();
    latencies.push(performance.now() - started);
  }
  const perRequest = (treeCpuMs(apiPid) - cpu) / RUNS;
  latencies.sort((a, b) => a - b);
  const p50 = latencies[Math.floor(RUNS / 2)]!;
  console.log(`${name.padEnd(34)} API CPU ${perRequest.toFixed(3)} ms/request, latency p50 ${p50.toFixed(2)} ms (${RUNS} requests)`);
  return perRequest;
}

/** CPU of a finished child process tree, from what this process reaped. */
const reapedMs = () => serverCpuMs(process.pid) - treeCpuMs(process.pid);

async function cliCpuMs(url: string, key: string): Promise<number> {
  const before = reapedMs();
  for (let i = 0; i < CLI_RUNS; i++) {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(root, 'bin', 'postwire.js'), 'contacts', 'list', '--json'], {
        env: { ...process.env, POSTWIRE_URL: url, POSTWIRE_API_KEY: key },
        stdio: 'ignore',
      });
      child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`postwire exited ${code}`))));
    });
  }
  return (reapedMs() - before) / CLI_RUNS;
}

async function main() {
  const db = await openBenchDatabase();
  const api = await startApiProcess(PORT, db.url, { API_RATE_LIMIT_PER_MINUTE: '0' });
  try {
    const tenant = await createTenant(api.url);
    const auth = { authorization: `Bearer ${tenant.secret}` };
    for (let i = 0; i < 20; i++) {
      await fetch(`${api.url}/contacts`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `bench-${i}@example.test`, data: { plan: 'pro' } }),
      });
    }
    const mcp = (method: string, params: object) => () =>
      fetch(`${api.url}/mcp`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
    const http = await measure('GET /contacts?limit=20 over HTTP', api.pid, () => fetch(`${api.url}/contacts?limit=20`, { headers: auth }));
    const tool = await measure(
      'tools/call contacts_list limit 20',
      api.pid,
      mcp('tools/call', { name: 'contacts_list', arguments: { limit: 20 } }),
    );
    await measure('tools/list', api.pid, mcp('tools/list', {}));
    console.log(`a tool call costs ${(tool / http).toFixed(2)}× the HTTP request (${(tool - http).toFixed(3)} ms of API CPU more)`);
    console.log(
      `postwire contacts list --json: ${(await cliCpuMs(api.url, tenant.secret)).toFixed(0)} ms CPU per command (${CLI_RUNS} runs)`,
    );
  } finally {
    await api.stop();
    await db.close();
  }
}

void main();

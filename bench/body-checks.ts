/**
 * CPU that the body pipeline's text checks (src/http/well-formed.ts: strict UTF-8 decoding; json-shape.ts: the
 * shape scan) spend per body, beside JSON.parse of the same body, for a /v1/track-sized body and a 2 MB one (the
 * default body limit). In process, no server: `BENCH_RUNS` bodies each (default 20,000 small, 50 large).
 */
import { assertJsonShape } from '../src/http/json-shape';
import { decodeUtf8 } from '../src/http/well-formed';

const runs = Number(process.env.BENCH_RUNS ?? 0);
const bodies = [
  {
    name: 'track body',
    text: JSON.stringify({ email: 'a@example.test', event: 'signup', data: { plan: 'pro', seats: 3, tags: ['a', 'b'] } }),
    runs: runs || 20_000,
  },
  {
    name: '2 MB send body',
    text: JSON.stringify({ to: 'a@example.test', subject: 'Hi', body: '<p>"x"</p>'.repeat(200_000) }),
    runs: runs || 50,
  },
];

function cpuMicros(work: () => void, n: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

for (const { name, text, runs: n } of bodies) {
  const raw = Buffer.from(text);
  const checks = cpuMicros(() => assertJsonShape(decodeUtf8(raw)), n);
  const parse = cpuMicros(() => JSON.parse(raw.toString('utf8')), n);
  console.log(`${name} (${raw.length} bytes): checks ${checks.toFixed(2)} µs CPU, JSON.parse ${parse.toFixed(2)} µs CPU, ${n} runs`);
}

/**
 * Throughput and latency of authenticated endpoints of a running API (BENCH_URL, default
 * http://localhost:3000): the session-cookie path, and the secret-key path when the server has a
 * secret-key route to measure it with.
 */
import { runBench } from './lib/run';
import { createTenant } from './lib/tenant';

const SECRET_ROUTE = '/domains/project/{projectId}';

async function main(): Promise<void> {
  const base = (process.env.BENCH_URL ?? 'http://localhost:3000').replace(/\/$/, '');
  const tenant = await createTenant(base);

  await runBench({ name: 'GET /users/@me (session cookie)', url: `${base}/users/@me`, headers: { cookie: tenant.cookie } });

  const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  if (!doc.paths[SECRET_ROUTE]?.get) {
    console.log(`GET ${SECRET_ROUTE} (secret key): skipped, this server does not serve it`);
    return;
  }
  const secret = await runBench({
    name: `GET ${SECRET_ROUTE} (secret key)`,
    url: `${base}${SECRET_ROUTE.replace('{projectId}', tenant.projectId)}`,
    headers: { authorization: `Bearer ${tenant.secret}` },
  });
  if (secret.statuses['429']) {
    console.log('  429s: the project spent its API_RATE_LIMIT_PER_MINUTE budget (1000 by default) and the rest measured');
    console.log('  the refusal path; run the server with API_RATE_LIMIT_PER_MINUTE=0 to measure the route itself.');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

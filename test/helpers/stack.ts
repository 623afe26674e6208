import { randomBytes } from 'node:crypto';
import request from 'supertest';
import type { Server } from 'node:http';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { initOrm } from '../../src/db/orm';
import { createMailer } from '../../src/mail/mailer';
import { createDnsResolver } from '../../src/dns/resolver';
import { createTemporalGateway, type TemporalGateway } from '../../src/temporal/client';
import { sessionsFor, type Deps } from '../../src/deps';
import { createApp, type App } from '../../src/http/app';
import type { RouteDef } from '../../src/http/route';
import { allRoutes } from '../../src/http/routes';
import { workerDatabaseUrl } from './database';
import { SmtpSink } from './smtp-sink';
import { DnsServer } from './dns-server';

export interface TestStack {
  deps: Deps;
  app: App;
  /** A listening HTTP server for supertest: `request(stack.server)`. */
  server: Server;
  http: () => ReturnType<typeof request>;
  smtp: SmtpSink;
  dns: DnsServer;
  close(): Promise<void>;
}

export interface StackOptions {
  /** Extra settings, as environment variables. */
  env?: Record<string, string>;
  /** A Temporal client of a test environment; by default the dev server that `npm test` runs. */
  temporal?: TemporalGateway;
  /** Routes mounted beside the API's own, for behaviour no real route exercises yet. */
  extraRoutes?: RouteDef[];
}

/** The real API over a real database, SMTP server and DNS server, all on loopback. */
export async function startStack(options: StackOptions = {}): Promise<TestStack> {
  const smtp = await SmtpSink.start();
  const dns = await DnsServer.start();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: await workerDatabaseUrl(),
    DATABASE_POOL_SIZE: '5',
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS ?? 'localhost:7233',
    TEMPORAL_TASK_QUEUE: `test-${randomBytes(6).toString('hex')}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SMTP_URL: smtp.url,
    DNS_SERVERS: dns.address,
    PUBLIC_URL: 'http://localhost:3000',
    ...options.env,
  });
  const orm = await initOrm(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const deps: Deps = {
    config,
    logger: createLogger(config.LOG_LEVEL, 'test'),
    orm,
    temporal: options.temporal ?? createTemporalGateway(config),
    mailer: createMailer(config.SMTP_URL, config.SMTP_MAX_CONNECTIONS),
    dns: createDnsResolver(config.DNS_SERVERS),
    sessions: sessionsFor(config),
  };
  const app = createApp(deps, [...allRoutes(deps), ...(options.extraRoutes ?? [])]);
  const server = app.koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    deps,
    app,
    server,
    http: () => request(server),
    smtp,
    dns,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      deps.mailer.close();
      await orm.close();
      await smtp.close();
      await dns.close();
    },
  };
}

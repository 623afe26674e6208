import { loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { initOrm } from './app/orm';
import { createTemporalGateway } from './temporal/client';
import { createMailer } from './mail/mailer';
import { createDnsResolver } from './dns/resolver';
import { sessionsFor, type Deps } from './deps';
import { closeSimulator } from './app/simulator';

/**
 * docs/settings.md "Statement timeout": no request runs a statement longer than STATEMENT_TIMEOUT_MS, so the API's connections carry
 * it. The worker's do not: its long statements are legitimate jobs that no request waits on (an import chunk,
 * a campaign's snapshot of a large audience), docs/settings.md.
 */
const statementTimeoutOf = (name: string, config: Config) => (name === 'api' ? config.STATEMENT_TIMEOUT_MS : 0);

/** Builds the shared dependencies of a process from the environment. */
export async function createDeps(name: string, config: Config = loadConfig()): Promise<Deps> {
  const logger = createLogger(config.LOG_LEVEL, name);
  const orm = await initOrm(config.DATABASE_URL, config.DATABASE_POOL_SIZE, statementTimeoutOf(name, config));
  return {
    config,
    logger,
    orm,
    temporal: createTemporalGateway(config),
    mailer: createMailer(config.SMTP_URL, config.SMTP_MAX_CONNECTIONS),
    dns: createDnsResolver(config.DNS_SERVERS),
    sessions: sessionsFor(config),
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeSimulator(deps);
  await deps.mailer.close();
  await deps.orm.close();
}

/** Runs a process entry point, printing a bad setting as one readable message instead of a stack trace. */
export function runMain(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err instanceof Error && err.name === 'ConfigError' ? err.message : err);
    process.exit(1);
  });
}

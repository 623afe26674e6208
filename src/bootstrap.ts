import { loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { initOrm } from './db/orm';
import { createTemporalGateway } from './temporal/client';
import { createMailer } from './mail/mailer';
import { createDnsResolver } from './dns/resolver';
import { sessionsFor, type Deps } from './deps';

/** Builds the shared dependencies of a process from the environment. */
export async function createDeps(name: string, config: Config = loadConfig()): Promise<Deps> {
  const logger = createLogger(config.LOG_LEVEL, name);
  const orm = await initOrm(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
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

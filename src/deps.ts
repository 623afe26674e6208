import type { Config } from './config';
import type { Logger } from './logger';
import type { Orm } from './db/orm';
import type { TemporalGateway } from './temporal/client';
import type { Mailer } from './mail/mailer';
import type { DnsResolver } from './dns/resolver';
import { SessionSigner } from './auth/session';

/** What the API and the activities are built from; tests pass their own SMTP, DNS and Temporal. */
export interface Deps {
  config: Config;
  logger: Logger;
  orm: Orm;
  temporal: TemporalGateway;
  mailer: Mailer;
  dns: DnsResolver;
  sessions: SessionSigner;
}

export function sessionsFor(config: Config): SessionSigner {
  return new SessionSigner(config.JWT_SECRET);
}

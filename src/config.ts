import { isIP } from 'node:net';
import { z } from 'zod';

const bool = (fallback: boolean) => z.stringbool().default(fallback);
const list = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );
function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}
/** An address (`10.0.0.7`, `::1`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0 || isIP(address) === 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (isIP(address) === 6 ? 128 : 32));
}
/** A setting without a default; empty is unset, as in loadConfig. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(fallback);
/** A refill rate: a fraction is a token every few seconds (0.2 is one each five). */
const rate = (fallback: number) => z.coerce.number().finite().min(0).default(fallback);

/** Every setting Postwire reads from the environment. `.env.example` lists them with their defaults. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: int(3000, 1, 65535),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Peers whose X-Forwarded-* headers are believed (docs/security.md "Client addresses"); none by default. */
  TRUSTED_PROXIES: list.refine((entries) => entries.every(isAddressOrRange), 'must be IP addresses or CIDR ranges, comma-separated'),

  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  DATABASE_POOL_SIZE: int(20, 1),
  STATEMENT_TIMEOUT_MS: int(15_000, 1),

  TEMPORAL_ADDRESS: z.string().default('localhost:7233'),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('postwire'),
  /** The Temporal Web UI's address, for the dashboard's links to executions' runs (docs/automations.md "For operators"). */
  TEMPORAL_UI_URL: optional(z.url({ protocol: /^https?$/ })),
  /** Development only (npm start sets them): the mail and webhook captures, linked from the dashboard's overview. */
  MAIL_CAPTURE_URL: optional(z.url({ protocol: /^https?$/ })),
  WEBHOOK_CAPTURE_URL: optional(z.url({ protocol: /^https?$/ })),
  WORKER_MAX_CACHED_WORKFLOWS: int(200, 2),
  /** Workflow tasks a worker runs at once (docs/automations.md "Fairness"). */
  WORKER_WORKFLOW_TASK_SLOTS: int(10, 2),
  WORKER_WORKFLOW_BUNDLE: optional(z.string()),

  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  LINK_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
  ENCRYPTION_KEY: z.string().regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)'),

  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .default('smtp://localhost:1025'),
  SMTP_MAX_CONNECTIONS: int(32, 1),
  SYSTEM_EMAIL_FROM: z.string().default('Postwire <no-reply@postwire.local>'),
  DNS_SERVERS: list,
  DKIM_SELECTOR: z
    .string()
    .regex(/^[a-z0-9-]+$/i)
    .default('postwire'),
  SPF_INCLUDE: z.string().default('spf.postwire.local'),
  SNS_CERT_HOST_PATTERN: z
    .string()
    .default('^sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?$')
    .refine(isRegExp, 'must be a regular expression')
    .transform((s) => new RegExp(s, 'i')),
  SNS_CA_FILE: optional(z.string()),
  SNS_TOPIC_ARNS: list,

  DISABLE_SIGNUPS: bool(false),
  MAX_BODY_MB: int(2, 1),

  API_RATE_LIMIT_PER_MINUTE: int(1000),
  RATE_LIMIT_ENABLED: bool(false),
  RATE_LIMIT_TRACK_PER_SECOND: rate(100),
  RATE_LIMIT_TRACK_BURST: int(200),
  RATE_LIMIT_SEND_PER_SECOND: rate(20),
  RATE_LIMIT_SEND_BURST: int(50),
  RATE_LIMIT_CONTACTS_PER_SECOND: rate(50),
  RATE_LIMIT_CONTACTS_BURST: int(100),

  IDEMPOTENCY_KEY_TTL_HOURS: int(24, 1),
  MAX_ATTACHMENTS_COUNT: int(10, 1),
  MAX_ATTACHMENT_SIZE_MB: int(10, 1),
  EMAIL_RATE_PER_SECOND: int(100),
  MAX_EMAIL_RATE_PER_SECOND: int(0),
  /** docs/delivery.md: how long a worker's claim on an email holds unless renewed; a dead worker's emails wait this long. */
  DELIVERY_LEASE_MS: int(120_000, 3_000),
  CAMPAIGN_BATCH_SIZE: int(500, 1, 5000),

  SEGMENT_TRACKING_INTERVAL_MINUTES: int(15, 1),
  /** docs/segments.md "Compute": how long POST /segments/{id}/compute waits for the computation before a 202. */
  SEGMENT_COMPUTE_WAIT_SECONDS: int(10, 1, 300),

  // docs/consent.md "The public endpoint": the public signup forms' checks, without third parties.
  SIGNUP_MIN_FILL_SECONDS: int(3, 0, 3600),
  SIGNUP_LIMIT_PER_IP: int(20, 1),
  SIGNUP_LIMIT_PER_ADDRESS: int(5, 1),
  WEBHOOK_ALLOW_PRIVATE: bool(false),

  // docs/simulation.md: time-skipping test servers of POST /workflows/{id}/simulate, each running one simulation at a time.
  SIMULATION_SERVERS: int(2, 1, 32),
  SIMULATION_QUEUE: int(40),
  /** Starts a test server at the API's start and keeps one started, so that the first simulation finds it running. */
  SIMULATION_WARM: bool(true),
  TEMPORAL_TEST_SERVER_PATH: optional(z.string()),

  UPLOADS_DIR: z.string().min(1).default('.data/uploads'),
  /** Where `vite build` put the dashboard (docs/dashboard.md). */
  DASHBOARD_DIR: z.string().min(1).default('dist/dashboard'),
  UPLOAD_MAX_IMAGE_MB: int(5, 1, 100),
  UPLOADS_S3_BUCKET: optional(z.string()),
  UPLOADS_S3_REGION: z.string().min(1).default('us-east-1'),
  UPLOADS_S3_ENDPOINT: optional(z.url()),
  UPLOADS_S3_FORCE_PATH_STYLE: bool(false),
  UPLOADS_S3_ACCESS_KEY_ID: optional(z.string()),
  UPLOADS_S3_SECRET_ACCESS_KEY: optional(z.string()),

  // docs/sandbox.md: simulator addresses for development; npm start turns it on, production refuses it.
  SANDBOX_ENABLED: bool(false),

  // docs/security.md: the reputation guardrails judge each project over this window, once it sent this many.
  REPUTATION_WINDOW_DAYS: int(7, 1, 90),
  REPUTATION_MIN_SENT: int(500, 1),
  /** Counts mail to the simulator domain in reputation, analytics and billing: to rehearse the guardrails. */
  REPUTATION_COUNT_SIMULATED: bool(false),
  // docs/smtp.md: the inbound SMTP server and the relay listen only when their port is set (npm start sets 2525 and 2587).
  INBOUND_SMTP_PORT: optional(z.coerce.number().int().min(0).max(65535)),
  INBOUND_MX_HOST: z.string().min(1).default('inbound.postwire.local'),
  INBOUND_MAX_SIZE_MB: int(25, 1, 100),
  RELAY_SMTP_PORT: optional(z.coerce.number().int().min(0).max(65535)),
  /** PEM files of the deployment's certificate and key: the relay offers STARTTLS with them. */
  RELAY_TLS_CERT: optional(z.string()),
  RELAY_TLS_KEY: optional(z.string()),
  RELAY_ALLOW_INSECURE_AUTH: bool(false),
  RELAY_MAX_RECIPIENTS: int(50, 1, 1000),
  // docs/operators.md: opens /admin; unset, /admin does not exist.
  ADMIN_TOKEN: optional(z.string().min(32, 'must be at least 32 characters')),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses settings; a bad or missing one throws a message naming each offending variable. An empty value
 * counts as unset, as `KEY=` in an env file or `KEY=${KEY:-}` in a compose file means "not given".
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = configSchema.safeParse(given);
  if (parsed.success && parsed.data.NODE_ENV === 'production' && parsed.data.SANDBOX_ENABLED) {
    throw new ConfigError('Invalid settings:\n  SANDBOX_ENABLED: the sandbox is for development; it cannot be on with NODE_ENV=production');
  }
  if (parsed.success) return parsed.data;
  // Values are never echoed: some are secrets.
  const lines = parsed.error.issues.map((i) => {
    const name = i.path.join('.');
    return `  ${name}: ${given[name] === undefined ? 'required, not set' : i.message}`;
  });
  throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`);
}

import type { Config } from '../config';
import type { Orm } from '../db/orm';
import type { Logger } from '../logger';
import type { AppContext } from './context';
import { ApiError } from './errors';
import type { Bucket } from './route';

interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

const BUCKET_SETTINGS = {
  track: ['RATE_LIMIT_TRACK_PER_SECOND', 'RATE_LIMIT_TRACK_BURST'],
  send: ['RATE_LIMIT_SEND_PER_SECOND', 'RATE_LIMIT_SEND_BURST'],
  contacts: ['RATE_LIMIT_CONTACTS_PER_SECOND', 'RATE_LIMIT_CONTACTS_BURST'],
} as const satisfies Record<Bucket, readonly [keyof Config, keyof Config]>;

/**
 * The per-project request limits of api.md "Limits": an always-on requests-per-minute window and the
 * optional token buckets. Counters live in PostgreSQL so every API process shares them; when that store
 * cannot be reached, requests are allowed.
 */
export class RateLimiter {
  constructor(
    private readonly orm: Orm,
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  async enforce(ctx: AppContext, projectId: string, bucket: Bucket | undefined): Promise<void> {
    const verdicts: Verdict[] = [];
    const perMinute = this.config.API_RATE_LIMIT_PER_MINUTE;
    if (perMinute > 0) verdicts.push(...(await this.safely(() => this.window(projectId, perMinute))));
    const rate = bucket && this.bucketRate(bucket);
    if (bucket && rate) verdicts.push(...(await this.safely(() => this.take(`${bucket}:${projectId}`, rate.perSecond, rate.burst))));
    if (verdicts.length === 0) return;

    const denied = verdicts.find((v) => !v.allowed);
    const shown = denied ?? verdicts.reduce((a, b) => (b.remaining / b.limit < a.remaining / a.limit ? b : a));
    const reset = Math.max(1, Math.ceil(shown.resetSeconds));
    ctx.set('RateLimit-Limit', String(shown.limit));
    ctx.set('RateLimit-Remaining', String(Math.max(0, Math.floor(shown.remaining))));
    ctx.set('RateLimit-Reset', String(reset));
    if (denied) {
      throw new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', {
        details: { retryAfter: reset },
        suggestion: `Wait ${reset} second(s) before retrying.`,
        headers: { 'Retry-After': String(reset) },
      });
    }
  }

  private bucketRate(bucket: Bucket): { perSecond: number; burst: number } | null {
    if (!this.config.RATE_LIMIT_ENABLED) return null;
    const [rateKey, burstKey] = BUCKET_SETTINGS[bucket];
    const perSecond = this.config[rateKey];
    if (perSecond === 0) return null;
    return { perSecond, burst: Math.max(1, this.config[burstKey]) };
  }

  private async safely(fn: () => Promise<Verdict>): Promise<Verdict[]> {
    try {
      return [await fn()];
    } catch (err) {
      this.logger.warn({ err }, 'rate-limit store unreachable; allowing the request');
      return [];
    }
  }

  private async window(projectId: string, limit: number): Promise<Verdict> {
    const now = Date.now();
    const windowStart = Math.floor(now / 60_000) * 60_000;
    const rows = await this.orm.em.getConnection().execute<{ tokens: number }[]>(
      `insert into rate_limit_counters ("key", "tokens", "updated_at", "expires_at")
       values (?, 1, now(), to_timestamp(?)) on conflict ("key")
       do update set "tokens" = rate_limit_counters."tokens" + 1, "updated_at" = now()
       returning "tokens"`,
      [`minute:${projectId}:${windowStart}`, (windowStart + 120_000) / 1000],
    );
    const used = Number(rows[0]!.tokens);
    return { allowed: used <= limit, limit, remaining: limit - used, resetSeconds: (windowStart + 60_000 - now) / 1000 };
  }

  private async take(key: string, perSecond: number, burst: number): Promise<Verdict> {
    const rows = await this.orm.em.getConnection().execute<{ allowed: boolean; remaining: number; reset_seconds: number }[]>(
      'select * from rate_limit_take(?, ?, ?)',
      [`bucket:${key}`, perSecond, burst],
    );
    const row = rows[0]!;
    return { allowed: row.allowed, limit: burst, remaining: Number(row.remaining), resetSeconds: Number(row.reset_seconds) };
  }

  /** Drops counters whose window has passed; called periodically by the API process. */
  async prune(): Promise<void> {
    await this.safely(async () => {
      await this.orm.em.getConnection().execute('delete from rate_limit_counters where "expires_at" < now()');
      return { allowed: true, limit: 1, remaining: 1, resetSeconds: 0 };
    });
  }
}

import type { Config } from '../config';
import type { Orm } from '../db/orm';
import type { Logger } from '../logger';
import type { AppContext } from './context';
import { ApiError } from './errors';
import type { AuthKind, Bucket } from './route';

interface Verdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface BucketRate {
  perSecond: number;
  burst: number;
}

const BUCKET_SETTINGS = {
  track: ['RATE_LIMIT_TRACK_PER_SECOND', 'RATE_LIMIT_TRACK_BURST'],
  send: ['RATE_LIMIT_SEND_PER_SECOND', 'RATE_LIMIT_SEND_BURST'],
  contacts: ['RATE_LIMIT_CONTACTS_PER_SECOND', 'RATE_LIMIT_CONTACTS_BURST'],
} as const satisfies Record<Bucket, readonly [keyof Config, keyof Config]>;

/**
 * The window is cut by the database clock, not each process's own, so that every API process counts
 * into the same row for the same minute.
 */
const WINDOW_HIT = `
with w as (select now() as at, date_trunc('minute', now()) as started),
hit as (
  insert into rate_limit_counters ("key", "tokens", "updated_at", "expires_at")
  select ? || extract(epoch from w.started)::bigint, ?, w.at, w.started + interval '1 minute' from w
  on conflict ("key") do update set "tokens" = rate_limit_counters."tokens" + excluded."tokens", "updated_at" = excluded."updated_at"
  returning "tokens", "expires_at")
select hit."tokens" as used, extract(epoch from hit."expires_at" - w.at) as reset_seconds from hit, w`;

/**
 * The per-project request limits of docs/rate-limits.md: an always-on requests-per-minute window and the
 * optional token buckets. Counters live in PostgreSQL so every API process shares them; when that store
 * fails, requests are allowed.
 */
export class RateLimiter {
  constructor(
    private readonly orm: Orm,
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  /**
   * `auth` picks the per-minute budget: public-key traffic has its own, so a flood of it never refuses
   * secret-key calls. `cost` is how many requests this counts for in the window and tokens in the bucket
   * (a batch counts each of its emails).
   */
  async enforce(ctx: AppContext, projectId: string, auth: AuthKind, bucket: Bucket | undefined, cost = 1): Promise<void> {
    const verdicts = await this.judge(projectId, auth === 'public' ? 'public' : 'secret', bucket, cost);
    if (verdicts.length === 0) return;

    const denied = verdicts.find((v) => !v.allowed);
    // With several limits in force, the headers describe the one closest to running out.
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

  /**
   * The same limits for a caller that is no HTTP request (the SMTP relay, which answers 451 4.7.1): null
   * when allowed, else the seconds until it would be.
   */
  async refusal(projectId: string, bucket: Bucket, cost: number): Promise<number | null> {
    const denied = (await this.judge(projectId, 'secret', bucket, cost)).find((v) => !v.allowed);
    return denied ? Math.max(1, Math.ceil(denied.resetSeconds)) : null;
  }

  /** Drops counters whose window has passed; called periodically by the API process. */
  async prune(): Promise<void> {
    await this.attempt('could not prune rate-limit counters', () =>
      this.orm.em.getConnection().execute('delete from rate_limit_counters where "expires_at" < now()'),
    );
  }

  /** Verdicts of the limits in force, stopping at the first refusal so a refused request spends no later budget. */
  private async judge(projectId: string, budget: 'secret' | 'public', bucket: Bucket | undefined, cost: number): Promise<Verdict[]> {
    const checks: Array<() => Promise<Verdict>> = [];
    const perMinute = this.config.API_RATE_LIMIT_PER_MINUTE;
    if (perMinute > 0) checks.push(() => this.window(`${budget === 'public' ? 'minute-public' : 'minute'}:${projectId}:`, perMinute, cost));
    const rate = bucket ? this.bucketRate(bucket) : null;
    if (bucket && rate) checks.push(() => this.take(`${bucket}:${projectId}`, rate, cost));

    const verdicts: Verdict[] = [];
    for (const check of checks) {
      const verdict = await this.attempt('rate-limit store failed; allowing the request', check);
      if (!verdict) continue;
      verdicts.push(verdict);
      if (!verdict.allowed) break;
    }
    return verdicts;
  }

  private bucketRate(bucket: Bucket): BucketRate | null {
    if (!this.config.RATE_LIMIT_ENABLED) return null;
    const [rateKey, burstKey] = BUCKET_SETTINGS[bucket];
    const perSecond = this.config[rateKey];
    if (perSecond === 0) return null;
    return { perSecond, burst: Math.max(1, this.config[burstKey]) };
  }

  /** Runs a store operation; a failure is logged and yields `undefined`, which callers treat as "no limit". */
  private async attempt<T>(failure: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      return await fn();
    } catch (err) {
      this.logger.warn({ err }, failure);
      return undefined;
    }
  }

  private async window(key: string, limit: number, cost: number): Promise<Verdict> {
    const rows = await this.orm.em.getConnection().execute<{ used: number; reset_seconds: number }[]>(WINDOW_HIT, [key, cost]);
    const used = Number(rows[0]!.used);
    return { allowed: used <= limit, limit, remaining: limit - used, resetSeconds: Number(rows[0]!.reset_seconds) };
  }

  private async take(key: string, rate: BucketRate, cost: number): Promise<Verdict> {
    const rows = await this.orm.em
      .getConnection()
      .execute<{ allowed: boolean; remaining: number; reset_seconds: number }[]>('select * from rate_limit_take(?, ?, ?, ?)', [
        `bucket:${key}`,
        rate.perSecond,
        rate.burst,
        cost,
      ]);
    const row = rows[0]!;
    return { allowed: row.allowed, limit: rate.burst, remaining: Number(row.remaining), resetSeconds: Number(row.reset_seconds) };
  }
}

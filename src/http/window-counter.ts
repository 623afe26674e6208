import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Counts an attempt against each key in the shared counter table of the rate limits (migration 0001's
 * `rate_limit_counters`), each in a window that opens with the first attempt counted after the last one
 * closed and lasts `minutes`. One statement, so concurrent attempts cannot slip past a limit.
 */
const COUNT = (keys: number) => `
insert into rate_limit_counters as c ("key", "tokens", "updated_at", "expires_at")
values ${Array.from({ length: keys }, () => '(?, 1, now(), now() + make_interval(mins => ?))').join(', ')}
on conflict ("key") do update set
  "tokens" = case when c."expires_at" <= now() then 1 else c."tokens" + 1 end,
  "expires_at" = case when c."expires_at" <= now() then excluded."expires_at" else c."expires_at" end,
  "updated_at" = excluded."updated_at"
returning "key", "tokens", extract(epoch from "expires_at" - now()) as "reset_seconds"`;

export interface WindowCount {
  key: string;
  /** Attempts in the current window, this one included. */
  count: number;
  /** Seconds until the window closes. */
  resetSeconds: number;
}

export async function countInWindow(em: EntityManager, keys: readonly string[], minutes: number): Promise<WindowCount[]> {
  const rows = await em.getConnection().execute<Array<{ key: string; tokens: number; reset_seconds: number }>>(
    COUNT(keys.length),
    keys.flatMap((key) => [key, minutes]),
  );
  return rows.map((r) => ({ key: r.key, count: Number(r.tokens), resetSeconds: Math.max(1, Math.ceil(Number(r.reset_seconds))) }));
}

/** Takes one attempt back from each key's current window. */
export async function uncount(em: EntityManager, keys: readonly string[]): Promise<void> {
  await em
    .getConnection()
    .execute(
      `update rate_limit_counters set "tokens" = "tokens" - 1 where "key" in (${keys.map(() => '?').join(', ')}) and "expires_at" > now()`,
      [...keys],
      'run',
    );
}

import type { EntityManager } from '@mikro-orm/postgresql';

export interface KeyClaim {
  projectId: string;
  key: string;
  /** When this claim was made, as the database wrote it; identifies the claim when it is settled or released. */
  claimedAt: string;
}

export interface KeyHolder {
  method: string;
  path: string;
  createdAt: Date;
  statusCode: number | null;
}

type ClaimOutcome = { claimed: true; claim: KeyClaim } | { claimed: false; holder: KeyHolder };

// Timestamps of raw queries arrive as PostgreSQL text.
interface HolderRow {
  method: string;
  path: string;
  created_at: string;
  status_code: number | null;
}

// The key is taken when it is new or its previous claim has expired. Concurrent claims serialise on the
// primary key: the loser sees the winner's committed row and gets nothing back. Time comes from the
// database so API processes with skewed clocks agree on expiry.
const CLAIM = `
insert into idempotency_keys as k ("project_id", "key", "method", "path", "created_at", "expires_at", "status_code")
select ?, ?, ?, ?, t.now, t.now + make_interval(hours => ?), null
from (select clock_timestamp() as now) t
on conflict ("project_id", "key") do update set
  "method" = excluded."method", "path" = excluded."path", "created_at" = excluded."created_at",
  "expires_at" = excluded."expires_at", "status_code" = null
  where k."expires_at" <= excluded."created_at"
returning "created_at"`;

const HOLDER = `
select "method", "path", "created_at", "status_code" from idempotency_keys
where "project_id" = ? and "key" = ? and "expires_at" > clock_timestamp()`;

/**
 * Claims an `Idempotency-Key` for a project, outside any request transaction so that concurrent requests
 * see the claim at once. Returns the current holder when the key is taken.
 */
export async function claimKey(
  em: EntityManager,
  projectId: string,
  key: string,
  request: { method: string; path: string },
  ttlHours: number,
): Promise<ClaimOutcome> {
  const connection = em.getConnection();
  // A holder can release its claim between our insert and our read; then the key is free to claim again.
  for (;;) {
    const won = await connection.execute<{ created_at: string }[]>(CLAIM, [projectId, key, request.method, request.path, ttlHours]);
    if (won[0]) return { claimed: true, claim: { projectId, key, claimedAt: won[0].created_at } };
    const [holder] = await connection.execute<HolderRow[]>(HOLDER, [projectId, key]);
    if (holder) {
      return {
        claimed: false,
        holder: { method: holder.method, path: holder.path, createdAt: new Date(holder.created_at), statusCode: holder.status_code },
      };
    }
  }
}

/** Keeps the key claimed until it expires, remembering how the first request ended. */
export async function settleKey(em: EntityManager, claim: KeyClaim, statusCode: number): Promise<void> {
  await em
    .getConnection()
    .execute('update idempotency_keys set "status_code" = ? where "project_id" = ? and "key" = ? and "created_at" = ?', [
      statusCode,
      claim.projectId,
      claim.key,
      claim.claimedAt,
    ]);
}

/** Frees the key so that the request can be retried with it. */
export async function releaseKey(em: EntityManager, claim: KeyClaim): Promise<void> {
  await em
    .getConnection()
    .execute('delete from idempotency_keys where "project_id" = ? and "key" = ? and "created_at" = ?', [
      claim.projectId,
      claim.key,
      claim.claimedAt,
    ]);
}

/** Drops expired claims; expired keys are reclaimable anyway, this only keeps the table small. */
export async function pruneExpiredKeys(em: EntityManager): Promise<number> {
  const res = await em
    .getConnection()
    .execute<{ affectedRows: number }>('delete from idempotency_keys where "expires_at" <= clock_timestamp()', [], 'run');
  return res.affectedRows;
}

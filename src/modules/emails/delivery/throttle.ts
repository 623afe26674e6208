import type { EntityManager } from '@mikro-orm/postgresql';
import type { SourceType } from '../entities';

/**
 * The per-project sending rate, shared by every worker through PostgreSQL. It is a GCRA (virtual
 * scheduling): each project and lane keeps the theoretical arrival time (TAT) of its next email in
 * email_send_slots. Claiming k emails takes the next k slots, one every 1/rate seconds; slots within one
 * second's burst of now go at once, later ones are deferred to their slot and keep it (slot_reserved), so a
 * backlog is scheduled once instead of being re-examined on every claim. Lanes are the source types: a
 * campaign's backlog reserves slots in its own lane and never delays transactional or automation mail.
 */

export interface Candidate {
  id: string;
  projectId: string;
  lane: SourceType;
  /** Emails per second; 0 is unlimited. */
  rate: number;
  /** Already holds a slot from an earlier claim. */
  slotReserved: boolean;
}

export interface ThrottlePlan {
  sendNow: string[];
  /** Emails to leave PENDING until their slot, with the delay in ms. */
  deferred: Array<{ id: string; delay_ms: number }>;
}

// statement_timestamp() is one instant for the whole statement, so every group is measured from the same now.
const TAKE_SLOTS = `
insert into email_send_slots as s ("project_id", "lane", "tat")
select g."project_id", g."lane", statement_timestamp() + g."span_ms" * interval '1 millisecond'
from jsonb_to_recordset(?::jsonb) as g("project_id" uuid, "lane" text, "span_ms" double precision)
on conflict ("project_id", "lane") do update set "tat" = greatest(s."tat", statement_timestamp()) + (excluded."tat" - statement_timestamp())
returning s."project_id", s."lane",
  coalesce(extract(epoch from greatest(old."tat", statement_timestamp()) - statement_timestamp()) * 1000, 0)::float8 as "wait_ms"`;

const groupKey = (c: Pick<Candidate, 'projectId' | 'lane'>) => `${c.projectId}:${c.lane}`;

/** Takes slots for the candidates that need one and decides which go now; runs in the claiming transaction. */
export async function planSends(tx: EntityManager, candidates: Candidate[]): Promise<ThrottlePlan> {
  const plan: ThrottlePlan = { sendNow: [], deferred: [] };
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (c.rate <= 0 || c.slotReserved) plan.sendNow.push(c.id);
    else groups.set(groupKey(c), [...(groups.get(groupKey(c)) ?? []), c]);
  }
  if (groups.size === 0) return plan;
  const request = [...groups.values()].map((list) => ({
    project_id: list[0]!.projectId,
    lane: list[0]!.lane,
    span_ms: (list.length * 1000) / list[0]!.rate,
  }));
  // Fixed order: concurrent claims lock the slot rows in the same order and cannot deadlock.
  request.sort((a, b) => (a.project_id + a.lane < b.project_id + b.lane ? -1 : 1));
  const waits = await tx.execute<Array<{ project_id: string; lane: SourceType; wait_ms: number }>>(TAKE_SLOTS, [JSON.stringify(request)]);
  for (const { project_id, lane, wait_ms } of waits) {
    const list = groups.get(groupKey({ projectId: project_id, lane }))!;
    const interval = 1000 / list[0]!.rate;
    // One second's worth of emails may go at once after a quiet spell.
    const tolerance = Math.max(0, list[0]!.rate - 1) * interval;
    list.forEach((c, i) => {
      const slot = wait_ms + i * interval;
      if (slot <= tolerance) plan.sendNow.push(c.id);
      else plan.deferred.push({ id: c.id, delay_ms: slot - tolerance });
    });
  }
  return plan;
}

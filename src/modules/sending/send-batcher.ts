import { GroupCommit } from '../../db/group-commit';
import type { Orm } from '../../db/orm';
import { writeSends, type PendingSend, type SendingDeps, type WrittenSend } from './write';

/**
 * At most this many emails in one group: the CPU per email falls little past a few dozen
 * (docs/contributors/sending.md "Group commit"), and a larger group only holds its requests longer.
 */
const MAX_EMAILS = 50;

/**
 * A group also holds at most about MAX_EMAILS of these in message bytes: its emails and attachments are
 * written by one statement each, which holds them all in memory at once; a send of many megabytes (an
 * attachment, a large body) is written alone.
 */
const BYTES_PER_EMAIL = 1024 * 1024;

/** What a send weighs in a group: its emails, or its bytes in BYTES_PER_EMAIL when they weigh more. */
export function sendWeight({ send }: PendingSend): number {
  const { content, attachments, recipients } = send;
  const bytes =
    content.subject.length + content.body.length + (content.text?.length ?? 0) + attachments.reduce((sum, a) => sum + a.content.length, 0);
  return recipients.length * Math.max(1, Math.ceil(bytes / BYTES_PER_EMAIL));
}

/**
 * Concurrent /v1/send requests recorded with group commit (src/db/group-commit.ts): a group shares one
 * transaction, its statements and its commit. A group that fails (a send that does not render, a cap one
 * project passes, a database error) is recorded again one send per transaction, so that a failure is
 * answered only to its own request.
 */
export type SendBatcher = GroupCommit<PendingSend, WrittenSend>;

export const sendBatcher = (orm: Orm, deps: SendingDeps): SendBatcher =>
  new GroupCommit({
    write: (pending) => orm.em.fork().transactional((tx) => writeSends(tx, deps, pending)),
    weight: sendWeight,
    maxWeight: MAX_EMAILS,
  });

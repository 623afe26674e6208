import { GroupCommit } from '../../db/group-commit';
import type { Orm } from '../../db/orm';
import { writeSends, type PendingSend, type SendingDeps, type WrittenSend } from './write';

/**
 * At most this many emails in one group: the CPU per email falls little past a few dozen
 * (docs/contributors/sending.md "Group commit"), and a larger group only holds its requests longer.
 */
const MAX_EMAILS = 50;

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
    weight: (pending) => pending.send.recipients.length,
    maxWeight: MAX_EMAILS,
  });

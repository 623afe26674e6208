import { Migration } from '@mikro-orm/migrations';

/**
 * The simulator's softbounce@ memory (docs/sandbox.md): a row names a message refused once and not yet
 * accepted. Kept in the database rather than in the worker that answered, so that the retry is accepted
 * whichever worker sends it, a restarted one included. Only written with SANDBOX_ENABLED.
 */
export class Migration0034SandboxSoftbounces extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
create table "sandbox_softbounces" (
  "message_id" text primary key,
  "refused_at" timestamptz not null default now());
`);
  }
}

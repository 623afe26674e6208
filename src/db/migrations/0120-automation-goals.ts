import { Migration } from '@mikro-orm/migrations';

/**
 * Goals (docs/automations.md "Goals"): an automation may name one (`{event, filter?, window?}`, snapshotted into
 * each execution's definition as it starts), and an execution that reaches it ends CONVERTED.
 */
export class Migration0120AutomationGoals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "automations" add column "goal" jsonb null;
alter table "automation_executions" drop constraint "automation_executions_status_check";
alter table "automation_executions" add constraint "automation_executions_status_check"
  check ("status" in ('RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'CONVERTED', 'FAILED', 'CANCELLED'));
`);
  }
}

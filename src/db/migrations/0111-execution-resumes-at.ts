import { Migration } from '@mikro-orm/migrations';

/**
 * When a WAITING execution's timer ends, where SQL cannot work it out from the step: a DELAY `until` a local
 * time of day ends where the contact's time zone puts it, decided by the activity that marks the step WAITING
 * (docs/automations.md "Local times"). Null for every other wait (its end follows from the step's start); every
 * write of the execution's state clears it.
 */
export class Migration0111ExecutionResumesAt extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "automation_executions" add column "resumes_at" timestamptz null;`);
  }
}

import { Migration } from '@mikro-orm/migrations';

/**
 * A step's type is checked where it is written (the step-type registry, `src/modules/automations/step-types/`),
 * not by a list in the table: a new step type is then a few files and registry lines, with no migration.
 */
export class Migration0031AutomationStepTypeUnchecked extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "automation_steps" drop constraint "automation_steps_type_check";`);
  }
}

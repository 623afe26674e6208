import { Migration } from '@mikro-orm/migrations';

/** RANDOM_SPLIT (docs/automations.md "Split tests"): transitions leave a split by its branches, `A` to `E`. */
export class Migration0100RandomSplit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
alter table "automation_transitions" drop constraint "automation_transitions_branch_check";
alter table "automation_transitions" add constraint "automation_transitions_branch_check"
  check ("branch" in ('yes', 'no', 'A', 'B', 'C', 'D', 'E'));
`);
  }
}

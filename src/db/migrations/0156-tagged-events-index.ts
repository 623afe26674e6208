import { Migration } from '@mikro-orm/migrations';

/**
 * The tags index holds only events whose tags are not empty. Its predicate was `data ? 'tags'`, which every
 * `email.*` event meets: each carries its email's tags, `{}` when the email has none, so every email event of
 * an untagged email (a campaign's `email.sent` among them) wrote a GIN entry that no tag filter can match.
 * A filter names one tag, which an empty object never contains; the feed's conditions repeat this predicate so
 * that the planner can prove the index applies (src/modules/activity/feed.ts).
 */
const TAGGED_EVENTS = `"data" -> 'tags' <> '{}'::jsonb`;

export class Migration0156TaggedEventsIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
drop index "events_tags_index";
create index "events_tags_index" on "events" using gin (("data" -> 'tags') jsonb_path_ops) where ${TAGGED_EVENTS};`);
  }
}

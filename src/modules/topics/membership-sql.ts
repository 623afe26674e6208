/**
 * Whether a contact is in a topic, as SQL (docs/consent.md "Topics"): its own choice, else the topic's default.
 * `topicId` and `contactId` are SQL expressions. With the default known when the statement is built, the test
 * is one semi-join (default OUT: a choice to be in) or anti-join (default IN: no choice to be out), which
 * PostgreSQL runs as one pass over the topic's choices rather than a lookup per contact (bench/consent.ts).
 * The filters engine and campaign audiences ask it here.
 */
export function topicMemberSql(topicId: string, contactId: string, defaultIn: boolean): string {
  const choice = (member: boolean) =>
    `exists (select 1 from contact_topics ct where ct."topic_id" = ${topicId} and ct."contact_id" = ${contactId} and ${member ? '' : 'not '}ct."member")`;
  return defaultIn ? `not ${choice(false)}` : choice(true);
}

/**
 * Whether a contact is in a topic, as SQL (docs/consent.md "Topics"): its own choice, else the topic's default.
 * `topicId` and `contactId` are SQL expressions; `defaultIn` a boolean one. The filters engine and campaign
 * audiences ask it here.
 */
export const topicMemberSql = (topicId: string, contactId: string, defaultIn: string): string =>
  `coalesce((select ct."member" from contact_topics ct where ct."topic_id" = ${topicId} and ct."contact_id" = ${contactId}), ${defaultIn})`;

/** The same for a topic named by id only; a topic that no longer exists has no members (its choices went with it). */
export const topicMemberByIdSql = (topicId: string, contactId: string): string =>
  topicMemberSql(topicId, contactId, `coalesce((select t."default_membership" = 'IN' from topics t where t."id" = ${topicId}), false)`);

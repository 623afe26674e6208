/**
 * Every table with a `project_id` column, sorted by what POST /users/@me/projects/{id}/reset does with it.
 * A module that adds such a table lists it here; test/projects/project-data-tables.test.ts fails until it does.
 */

/**
 * The project's data: reset deletes the project's rows, in this order, dependents before what they reference,
 * so that each table's count in the answer is its own (rows that hang off these, e.g. segment_members or
 * email_attachments, go by cascade).
 */
export const PROJECT_DATA_TABLES = [
  // Events not yet handed on (deleting an event deletes its row too; first, they are counted here).
  'event_outbox',
  'events',
  'confirmations',
  'inbound_emails',
  'email_queue',
  'emails',
  // After the emails relayed from them (emails.relayed_message_id cascades).
  'relayed_messages',
  'email_send_slots',
  'automation_executions',
  'automations',
  // The event names the project's automations have named (migration 0153): the outbox's filter.
  'heard_event_names',
  'campaigns',
  'signup_forms',
  'topics',
  'segments',
  'jobs',
  'templates',
  'contacts',
  'contact_fields',
  'idempotency_keys',
  'suppressions',
  // Rollups of the tables above (migrations 0024, 0005, 0030): emptied last, once the deletions above have taken their counts off.
  'email_stats',
  'event_stats',
  'contact_counts',
  'contact_field_counts',
] as const;

/**
 * The project's setup and history: reset keeps them. Its audit entries (project_audit, which has no foreign key)
 * outlive even its deletion, for the operators (docs/operators.md).
 */
export const PROJECT_SETUP_TABLES = [
  'project_members',
  'domains',
  'project_suspensions',
  'project_audit',
  'reputation_notices',
  'webhook_endpoints',
] as const;

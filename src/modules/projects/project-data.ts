/**
 * Every table with a `project_id` column, sorted by what POST /users/@me/projects/{id}/reset does with it.
 * A module that adds such a table lists it here; test/projects/project-data-tables.test.ts fails until it does.
 */

/** The project's data: reset deletes the project's rows (rows that hang off them, e.g. segment_members, go by cascade). */
export const PROJECT_DATA_TABLES = [
  'events',
  'segments',
  'contacts',
  'contact_fields',
  'idempotency_keys',
  'templates',
  'jobs',
  'emails',
  'email_send_slots',
] as const;

/** The project's setup and history: reset keeps them. */
export const PROJECT_SETUP_TABLES = ['project_members', 'domains', 'project_suspensions'] as const;

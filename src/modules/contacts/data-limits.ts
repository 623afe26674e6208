/**
 * docs/contacts.md "Limits": the limits of a `data` object, which keep one request (and the field catalog it
 * feeds) small enough that no tenant's writes or reads of fields can stall the others. One owner for every
 * writer: the `ContactData` schema (track, send, contacts, UPDATE_CONTACT) and each CSV import row, through
 * `dataLimitIssues` (custom-fields.ts, with the other custom-field rules).
 */
export const MAX_DATA_KEYS = 100;
export const MAX_KEY_LENGTH = 100;
export const MAX_DATA_DEPTH = 5;
/** Elements of one array in `data`, at any depth. */
export const MAX_ARRAY_ELEMENTS = 1_000;
/** The longest dotted path within the limits: 5 keys of 100 characters and the dots between them. */
export const MAX_PATH_LENGTH = MAX_DATA_DEPTH * MAX_KEY_LENGTH + MAX_DATA_DEPTH - 1;
/** Distinct custom fields of a project; the database enforces it (migration 0030). */
export const MAX_CUSTOM_FIELDS = 1_000;
export const TOO_MANY_FIELDS_MESSAGE = `A project has at most ${MAX_CUSTOM_FIELDS} distinct custom fields`;

/** The refusal of migration 0030's trigger (SQLSTATE PWF01), from the driver or wrapped by MikroORM. */
export const isTooManyFieldsError = (err: unknown) => (err as { code?: unknown } | null)?.code === 'PWF01';

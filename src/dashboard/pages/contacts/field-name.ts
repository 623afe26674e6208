/**
 * A field as people name it: a custom one by its key in the contact's data (`firstName`, as the contact page,
 * imports and the API's contact bodies write it), a standard one as it is (`email`). Requests keep the API's
 * path (`data.firstName`).
 */
export const fieldName = (field: string) => (field.startsWith('data.') ? field.slice('data.'.length) : field);

/** The browser's time zone, named where a person picks a time. */
export const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `datetime-local` is the browser's wall-clock time; the API reads an instant, so it gets the offset too. */
export const instant = (local: string) => (local === '' || Number.isNaN(new Date(local).getTime()) ? local : new Date(local).toISOString());

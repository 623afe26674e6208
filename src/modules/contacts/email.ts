/** Contacts are one per address: mailbox providers deliver `User@x.com` and `user@x.com` to the same inbox. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

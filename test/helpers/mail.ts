import PostalMime, { type Email } from 'postal-mime';
import type { ReceivedMail, SmtpSink } from './smtp-sink';

/** The decoded message (subject, text, html, headers) of a mail the SMTP sink received. */
export const parseMail = (mail: ReceivedMail): Promise<Email> => PostalMime.parse(mail.raw);

/** Waits for a mail to `to` whose decoded subject matches, and returns it decoded. */
export async function waitForMail(smtp: SmtpSink, to: string, subject: RegExp, timeoutMs = 10_000): Promise<Email> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const mail of smtp.to(to)) {
      const parsed = await parseMail(mail);
      if (subject.test(parsed.subject ?? '')) return parsed;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${to} with subject ${subject} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The token of the first link to the dashboard's `page` (e.g. `/verify-email`, at `/app/#/verify-email?token=…`) in the text body. */
export function linkToken(mail: Email, page: string): string {
  const url = (mail.text ?? '')
    .match(/https?:\/\/\S+/g)
    ?.map((u) => new URL(new URL(u).hash.slice(1), 'http://page'))
    .find((u) => u.pathname === page);
  const token = url?.searchParams.get('token');
  if (!token) throw new Error(`no ${page} link in mail "${mail.subject}"`);
  return token;
}

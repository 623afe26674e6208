import { z } from 'zod';

export const TokenParams = z.object({ token: z.string().max(200).describe('The signed token of the link in the email') });

export const HtmlPage = z.string().describe('An HTML page');

/** Mail clients post RFC 8058's one-click field; the page's own form posts nothing. Other fields are ignored. */
export const UnsubscribeForm = z.looseObject({
  'List-Unsubscribe': z.string().optional().describe('`One-Click` from a mail client (RFC 8058)'),
});

export const SubscribeForm = z.looseObject({});

export const ManageForm = z.object({ subscribed: z.enum(['true', 'false']).describe('The state chosen') });

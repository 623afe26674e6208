import { z } from 'zod';

export const TokenParams = z.object({ token: z.string().max(200).describe('The signed token of the link in the email') });

export const HtmlPage = z.string().describe('An HTML page');

/** A page's form whose button posts nothing; other fields are ignored. */
export const EmptyForm = z.looseObject({});

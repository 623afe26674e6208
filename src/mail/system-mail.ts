import MailComposer from 'nodemailer/lib/mail-composer';
import type { Config } from '../config';
import type { Mailer } from './mailer';
import { escapeHtml } from '../escape-html';

/** A message the platform itself sends to dashboard users (not a project's email). */
export interface SystemMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * A dashboard page that receives the token and posts it to the API (see docs/account-emails.md). The token
 * rides after `#`, where the dashboard's pages live, so no server or proxy log ever records it.
 */
export function tokenLink(config: Pick<Config, 'PUBLIC_URL'>, page: string, token: string): string {
  return new URL(`/app/#${page}?${new URLSearchParams({ token }).toString()}`, config.PUBLIC_URL).toString();
}

function compose(to: string, subject: string, paragraphs: string[], action?: { label: string; url: string }): SystemMail {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : [])].join('\n\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}">${escapeHtml(action.label)}</a></p>` +
      `<p>Or paste this link into your browser: ${escapeHtml(action.url)}</p>`
    : '';
  const html = `<!doctype html><html><body>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}${button}</body></html>`;
  return { to, subject, text: `${text}\n`, html };
}

export const verificationMail = (config: Config, to: string, token: string): SystemMail =>
  compose(
    to,
    'Verify your email address',
    ['Confirm that this address belongs to your Postwire account.', 'The link expires in 24 hours.'],
    { label: 'Verify email', url: tokenLink(config, '/verify-email', token) },
  );

export const passwordResetMail = (config: Config, to: string, token: string): SystemMail =>
  compose(
    to,
    'Reset your password',
    [
      'Someone asked to reset the password of your Postwire account. If it was not you, ignore this email.',
      'The link expires in 1 hour and works once.',
    ],
    { label: 'Reset password', url: tokenLink(config, '/reset-password', token) },
  );

/** How the invitee proves the address: a link that sets a password (no account yet) or verifies the address. */
export interface InvitationProof {
  kind: 'set-password' | 'verify';
  token: string;
}

export interface Invitation {
  to: string;
  projectName: string;
  invitedBy: string;
  role: string;
  /** Absent when the address is already verified: the invitee has access at once. */
  proof?: InvitationProof;
}

const PROOF_ACTIONS = {
  'set-password': { label: 'Set your password', page: '/accept-invite' },
  verify: { label: 'Verify your email', page: '/verify-email' },
} as const;

/** The link that proves the address, when the invitee has not proven it yet. */
function proofLink(config: Config, proof: InvitationProof): { label: string; url: string } {
  const { label, page } = PROOF_ACTIONS[proof.kind];
  return { label, url: tokenLink(config, page, proof.token) };
}

export const invitationMail = (config: Config, inv: Invitation): SystemMail =>
  compose(
    inv.to,
    `You have been added to ${inv.projectName} on Postwire`,
    [
      `${inv.invitedBy} added you to the project "${inv.projectName}" as ${inv.role}.`,
      ...(inv.proof ? ['You get access once you open the link below, which confirms this address is yours. It expires in 7 days.'] : []),
    ],
    inv.proof ? proofLink(config, inv.proof) : { label: 'Open the dashboard', url: new URL('/', config.PUBLIC_URL).toString() },
  );

export async function sendSystemMail(mailer: Mailer, config: Config, mail: SystemMail): Promise<void> {
  const root = new MailComposer({
    from: config.SYSTEM_EMAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  }).compile();
  const { from, to } = root.getEnvelope();
  await mailer.send({ from: from || '', to: [to[0] ?? mail.to] }, await root.build());
}

export const webhookDisabledMail = (config: Config, to: string, what: { projectName: string; url: string; reason: string }): SystemMail =>
  compose(
    to,
    `A webhook endpoint of ${what.projectName} was disabled`,
    [
      `Postwire could not deliver events to ${what.url} and disabled the endpoint.`,
      what.reason,
      'Events recorded meanwhile are kept: once the receiver answers again, enable the endpoint and delivery resumes where it stopped.',
    ],
    { label: 'Open the dashboard', url: new URL('/', config.PUBLIC_URL).toString() },
  );

/** The owners' emails of the reputation guardrails (docs/security.md); each subject names the project and what happened. */
export type ReputationNoticeKind = 'warning' | 'suspended' | 'reinstated';

export function reputationNoticeMail(
  config: Config,
  to: string,
  kind: ReputationNoticeKind,
  what: { projectName: string; reason: string | null },
): SystemMail {
  const dashboard = { label: 'Open the dashboard', url: new URL('/app/', config.PUBLIC_URL).toString() };
  const name = `"${what.projectName}"`;
  if (kind === 'warning') {
    return compose(
      to,
      `Postwire project ${name}: reputation warning`,
      [
        `The bounce or complaint rate of ${name} is high: ${what.reason ?? 'see its Security page'}`,
        'At the critical level the project is suspended automatically and sends nothing until an operator reinstates it. Remove addresses that bounce, send only to people who asked for your mail, and make unsubscribing easy.',
      ],
      dashboard,
    );
  }
  if (kind === 'suspended') {
    return compose(
      to,
      `Postwire project ${name} was suspended`,
      [
        `${name} was suspended. Reason: ${what.reason ?? 'none given'}`,
        'It sends nothing meanwhile, and its API keys are refused with 403 PROJECT_DISABLED. Nothing is lost: queued emails, campaigns under way and automation emails wait, and go once the project is reinstated. Contact the operators of this Postwire deployment.',
      ],
      dashboard,
    );
  }
  return compose(
    to,
    `Postwire project ${name} was reinstated`,
    [
      `${name} was reinstated.${what.reason ? ` Note: ${what.reason}` : ''}`,
      'Its API keys work again, and the emails that waited during the suspension are being sent.',
    ],
    dashboard,
  );
}

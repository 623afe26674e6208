import type { SubscriptionLinks } from '../templates/variables';
import { button, html, page } from './pages';

/** What a subscription page shows: whose address, for which sender, in which state. */
export interface PreferenceView {
  email: string;
  projectName: string;
  subscribed: boolean;
  links: SubscriptionLinks;
}

const SELF = null;

export function unsubscribePage(v: PreferenceView): string {
  if (!v.subscribed) return unsubscribedPage(v);
  return page(
    'Unsubscribe',
    html`<p>Stop marketing email from ${v.projectName} to <strong>${v.email}</strong>?</p>${button(SELF, 'Unsubscribe')}`,
  );
}

export function unsubscribedPage(v: PreferenceView): string {
  return page(
    'You are unsubscribed',
    html`<p><strong>${v.email}</strong> will no longer receive marketing email from ${v.projectName}.</p>
<p class="note">Messages you ask for, such as receipts or password resets, still arrive.</p>
${button(v.links.subscribeUrl, 'Subscribe again', {}, true)}`,
  );
}

export function subscribePage(v: PreferenceView): string {
  if (v.subscribed) return subscribedPage(v);
  return page('Subscribe', html`<p>Receive email from ${v.projectName} at <strong>${v.email}</strong>?</p>${button(SELF, 'Subscribe')}`);
}

export function subscribedPage(v: PreferenceView): string {
  return page(
    'You are subscribed',
    html`<p><strong>${v.email}</strong> will receive email from ${v.projectName}.</p>${button(v.links.unsubscribeUrl, 'Unsubscribe', {}, true)}`,
  );
}

export function managePage(v: PreferenceView, saved = false): string {
  const state = v.subscribed ? 'subscribed to' : 'unsubscribed from';
  return page(
    'Email preferences',
    html`${saved ? html`<p class="note">Your preferences were saved.</p>` : html``}
<p><strong>${v.email}</strong> is ${state} marketing email from ${v.projectName}.</p>
${button(SELF, 'Subscribe', { subscribed: 'true' }, v.subscribed)}${button(SELF, 'Unsubscribe', { subscribed: 'false' }, !v.subscribed)}`,
  );
}

export function invalidLinkPage(): string {
  return page('This link does not work', html`<p>The link is incomplete or no longer valid. Please use the link in a recent email.</p>`);
}

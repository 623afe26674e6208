import { PERIOD_WORDS, SNOOZE_PERIODS } from '../consent/snooze';
import { button, html, join, page, raw, type Html } from '../pages/html';
import type { SubscriptionLinks } from '../templates/variables';
import type { TopicMembership } from '../topics/memberships';

/** What a subscription page shows: whose address, for which sender, in which state. */
export interface PreferenceView {
  email: string;
  projectName: string;
  subscribed: boolean;
  links: SubscriptionLinks;
  topics: TopicMembership[];
  snoozedUntil: Date | null;
  /** The topic an unsubscribe link of mail about it leaves, when the page is for one. */
  topic: TopicMembership | null;
}

const SELF = null;

/** The form field of a topic's checkbox on the preference page. */
export const topicField = (topicId: string) => `topic_${topicId}`;

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

export function unsubscribePage(v: PreferenceView): string {
  if (v.topic) {
    if (!v.topic.member) return topicLeftPage(v);
    return page(
      'Unsubscribe',
      html`<p>Stop email about <strong>${v.topic.name}</strong> from ${v.projectName} to <strong>${v.email}</strong>?</p>${button(SELF, 'Unsubscribe')}
<p class="note">Other email from ${v.projectName} still arrives. <a href="${v.links.manageUrl}">Choose what you receive</a></p>`,
    );
  }
  if (!v.subscribed) return unsubscribedPage(v);
  return page(
    'Unsubscribe',
    html`<p>Stop marketing email from ${v.projectName} to <strong>${v.email}</strong>?</p>${button(SELF, 'Unsubscribe')}`,
  );
}

/** After an unsubscribe link of mail about a topic: that topic is left, and everything else is a click away. */
export function topicLeftPage(v: PreferenceView): string {
  return page(
    'You are unsubscribed',
    html`<p><strong>${v.email}</strong> will no longer receive email about <strong>${v.topic?.name ?? ''}</strong> from ${v.projectName}.</p>
<p><a href="${v.links.manageUrl}">Choose what you receive</a></p>
${button(v.links.unsubscribeUrl, 'Unsubscribe from everything', {}, true)}`,
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

function topicsForm(v: PreferenceView): Html {
  if (v.topics.length === 0) return html``;
  const boxes = v.topics.map(
    (t) => html`<label class="choice"><input type="checkbox" name="${topicField(t.topicId)}" value="in"${raw(t.member ? ' checked' : '')}>
<span>${t.name}${t.description ? html`<small>${t.description}</small>` : html``}</span></label>`,
  );
  return html`<form method="post" action="${v.links.manageUrl}/topics" class="block">
<fieldset><legend>Topics you receive</legend>${join(boxes)}</fieldset>
<input type="hidden" name="shown" value="${v.topics.map((t) => t.topicId).join(' ')}">
<button type="submit">Save topics</button></form>`;
}

function snoozePart(v: PreferenceView): Html {
  if (v.snoozedUntil) {
    return html`<h2>Paused</h2><p>Marketing email is paused until <strong>${day.format(v.snoozedUntil)}</strong>.</p>
${button(`${v.links.manageUrl}/resume`, 'Resume now', {}, true)}`;
  }
  const choices = SNOOZE_PERIODS.map(
    (period, i) =>
      html`<label class="choice"><input type="radio" name="period" value="${period}"${raw(i === 0 ? ' checked' : '')}> ${PERIOD_WORDS[period]}</label>`,
  );
  return html`<h2>Take a break</h2>
<form method="post" action="${v.links.manageUrl}/snooze" class="block">
<fieldset><legend>Pause marketing email for</legend>${join(choices)}</fieldset>
<button type="submit" class="secondary">Pause</button></form>`;
}

/** The preference center: topics to toggle, a snooze, and the subscription to everything. */
export function managePage(v: PreferenceView, saved = false): string {
  const state = v.subscribed ? 'subscribed to' : 'unsubscribed from';
  return page(
    'Email preferences',
    html`${saved ? html`<p class="note" role="status">Your preferences were saved.</p>` : html``}
<p><strong>${v.email}</strong> is ${state} marketing email from ${v.projectName}.</p>
${v.subscribed ? join([topicsForm(v), snoozePart(v)]) : html``}
<h2>All email</h2>
${button(SELF, 'Subscribe', { subscribed: 'true' }, v.subscribed)}${button(SELF, v.subscribed ? 'Unsubscribe from everything' : 'Unsubscribe', { subscribed: 'false' }, !v.subscribed)}`,
  );
}

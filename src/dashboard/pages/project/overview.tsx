import { api, call } from '../../api/client';
import { href } from '../../router';
import { useProject, useSession } from '../../session';
import { ErrorNote, Loading } from '../../ui/feedback';
import { PageHeader, Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';

function Step({ done, children }: { done: boolean; children: preact.ComponentChildren }) {
  return (
    <li class={done ? 'done' : ''}>
      <span aria-hidden="true">{done ? '✓' : '○'}</span> {children}
      <span class="sr-only">{done ? ' (done)' : ' (to do)'}</span>
    </li>
  );
}

/** Where a project stands: the steps to a first email, and what it has sent. */
export function Overview() {
  const project = useProject();
  const { user } = useSession();
  const state = useLoad(() => call(api.GET('/projects/{id}/setup-state', { params: { path: { id: project.id } } })), [project.id]);
  const resend = useAction(() => call(api.POST('/auth/request-verification')));
  const s = state.data;
  return (
    <>
      <PageHeader title={project.name} />
      {!user.emailVerified ? (
        <div class="notice" role="note">
          <p>Verify your email address to send to people other than yourself.</p>
          <button type="button" disabled={resend.pending} onClick={() => void resend.run()}>
            Send the link again
          </button>
          <ErrorNote error={resend.error} />
        </div>
      ) : null}
      <ErrorNote error={state.error} />
      {!s ? (
        <Loading />
      ) : (
        <div class="grid">
          <Section title="Getting started">
            <ol class="checklist">
              <Step done={s.hasVerifiedDomain}>
                <a href={href('/domains')}>Verify a sender domain</a>
              </Step>
              <Step done={s.hasContacts}>
                <a href={href('/contacts')}>Add or import contacts</a>
              </Step>
              <Step done={s.hasTrackedEvent}>
                Track an event with <a href={href('/keys')}>your public key</a>
              </Step>
              <Step done={s.hasSentEmail}>
                <a href={href('/campaigns')}>Send an email</a>
              </Step>
            </ol>
          </Section>
          <Section title="At a glance">
            <dl class="stats">
              <div>
                <dt>Contacts</dt>
                <dd>{s.contactCount.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Emails sent</dt>
                <dd>{s.emailsSent.toLocaleString()}</dd>
              </div>
              <div>
                <dt>Last sent</dt>
                <dd>{dateTime(s.lastEmailSentAt)}</dd>
              </div>
            </dl>
          </Section>
        </div>
      )}
    </>
  );
}

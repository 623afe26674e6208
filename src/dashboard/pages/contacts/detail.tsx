import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { RequestBody } from '../../api/types';
import { navigate } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote, Notice, WhenLoaded } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import { DataEditor } from './data-editor';
import { Timeline } from './timeline';
import { TrackEvent } from './track-event';
import { SubscriptionBadge } from './subscription';
import { ContactConsent } from '../consent/contact-consent';
import { Replies } from '../inbound/replies';
import './contacts.css';

type Patch = RequestBody<'/contacts/{id}', 'patch'>;

/** One contact: email, subscription, custom data and events; deleted only after a confirmation. */
export function ContactDetail({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const path = { id };
  const contact = useLoad(() => call(api.GET('/contacts/{id}', { params: { path } })), [id]);
  const [email, setEmail] = useState<string | null>(null);
  const [tracked, setTracked] = useState(0);
  const update = async (body: Patch) => {
    const updated = await call(api.PATCH('/contacts/{id}', { params: { path }, body }));
    await contact.reload();
    return updated;
  };
  const changeEmail = useAction(async () => {
    await update({ email: email ?? undefined });
    setEmail(null);
  });
  const flip = useAction((subscribed: boolean) => update({ subscribed }));
  const remove = useAction(async () => {
    await call(api.DELETE('/contacts/{id}', { params: { path } }));
    navigate('/contacts');
  });

  return (
    <>
      <PageHeader title={contact.data?.email ?? 'Contact'} back={{ path: '/contacts', label: 'Contacts' }}>
        {contact.data ? (
          <ConfirmButton label="Delete contact" confirm="Delete this contact and all its events?" danger onConfirm={() => remove.run()} />
        ) : null}
      </PageHeader>
      <ErrorNote error={remove.error} />
      <WhenLoaded loaded={contact}>
        {(c) => (
          <>
            <Section title="Contact">
              <dl class="stats">
                <div>
                  <dt>Subscription</dt>
                  <dd>
                    <SubscriptionBadge contact={c} />
                  </dd>
                </div>
                <div>
                  <dt>Created</dt>
                  <dd>{dateTime(c.createdAt)}</dd>
                </div>
                <div>
                  <dt>Updated</dt>
                  <dd>{dateTime(c.updatedAt)}</dd>
                </div>
              </dl>
              {c.suppression ? (
                <Notice tone="warn" role="note">
                  {c.suppression.reason === 'BOUNCE'
                    ? `This address bounced permanently on ${dateTime(c.suppression.since)}: marketing is not sent to it, and a bulk subscribe skips it.`
                    : `This recipient marked an email as spam on ${dateTime(c.suppression.since)}: marketing is not sent to them, and a bulk subscribe skips them.`}{' '}
                  Subscribing it here lifts the suppression: do it only when you know the address works and wants your mail.
                </Notice>
              ) : null}
              <p>
                <button type="button" disabled={flip.pending} onClick={() => void flip.run(!c.subscribed)}>
                  {c.subscribed ? 'Unsubscribe' : 'Subscribe'}
                </button>
              </p>
              <ErrorNote error={flip.error} />
              <Form onSubmit={() => void changeEmail.run()} class="form inline">
                <TextInput
                  label="Email"
                  name="email"
                  type="email"
                  required
                  value={email ?? c.email}
                  onValue={setEmail}
                  error={changeEmail.error}
                />
                <Submit pending={changeEmail.pending} busy="Saving…">
                  Change email
                </Submit>
              </Form>
              <ErrorNote error={changeEmail.error} />
            </Section>
            <ContactConsent key={c.updatedAt} contactId={id} changed={() => setTracked((n) => n + 1)} />
            <Section title="Custom data">
              <DataEditor data={c.data} onSave={async (data) => (await update({ data: data as Patch['data'] })).data} />
            </Section>
            <Replies
              title="Mail received"
              filter={{ contactId: id }}
              empty="No mail from this contact has arrived at your inbound domains."
            />
            <Section title="Events">
              <TrackEvent email={c.email} onTracked={() => setTracked((n) => n + 1)} />
              {/* A change of the contact (a subscription flip, a tracked event) adds an event: the timeline starts again at its newest. */}
              <Timeline key={`${c.updatedAt}/${tracked}`} contactId={id} />
            </Section>
          </>
        )}
      </WhenLoaded>
    </>
  );
}

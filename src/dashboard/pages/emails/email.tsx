import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { Badge, ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { instant, zone } from '../../ui/instant';
import { PageHeader, Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { Tags, tagFilter } from '../../ui/tags';
import { useAction, useLoad } from '../../ui/use-load';

type Email = Answer<'/v1/emails/{id}', 'get'>['data'];

const TONES: Partial<Record<Email['status'], 'good' | 'bad' | 'warn'>> = {
  DELIVERED: 'good',
  OPENED: 'good',
  CLICKED: 'good',
  BOUNCED: 'bad',
  COMPLAINED: 'bad',
  FAILED: 'bad',
  SUPPRESSED: 'warn',
  CANCELLED: 'warn',
};

export const EmailStatus = ({ status }: { status: Email['status'] }) => (
  <Badge tone={TONES[status] ?? 'neutral'}>{status.toLowerCase()}</Badge>
);

/** A SCHEDULED email: moved to another time (a past one sends it now), or cancelled. */
function Schedule({ email, changed }: { email: Email; changed: () => Promise<void> }) {
  const path = { id: email.id };
  const [at, setAt] = useState('');
  const move = useAction(async () => {
    await call(api.PATCH('/v1/emails/{id}', { params: { path }, body: { sendAt: instant(at) } }));
    setAt('');
    await changed();
  });
  const cancel = useAction(async () => {
    await call(api.POST('/v1/emails/{id}/cancel', { params: { path } }));
    await changed();
  });
  return (
    <Section title="Scheduled">
      <p>
        Leaves at <strong>{dateTime(email.scheduledAt)}</strong>, on a durable timer.
      </p>
      <Form onSubmit={() => void move.run()} class="form inline">
        <TextInput
          label="Send at"
          name="sendAt"
          type="datetime-local"
          value={at}
          onValue={setAt}
          error={move.error}
          hint={`Your time zone (${zone}); at most 30 days ahead; a time past sends it now.`}
        />
        <Submit pending={move.pending} busy="Rescheduling…">
          Reschedule
        </Submit>
      </Form>
      <ErrorNote error={move.error} />
      <ConfirmButton label="Cancel email" confirm="Cancel this email? It will never be sent." danger onConfirm={() => cancel.run()} />
      <ErrorNote error={cancel.error} />
    </Section>
  );
}

/** One email (`GET /v1/emails/{id}`): where it stands, its recipients, tags and times; a scheduled one can be moved or cancelled. */
export function EmailDetail({ params }: { params: Record<string, string> }) {
  const email = useLoad(() => call(api.GET('/v1/emails/{id}', { params: { path: { id: params.id! } } })), [params.id]);
  const shown = email.data?.data;
  return (
    <>
      <PageHeader title={shown ? shown.subject || '(no subject)' : 'Email'} />
      <WhenLoaded loaded={email}>
        {({ data: e }) => (
          <>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <EmailStatus status={e.status} />
                {e.nextAttemptAt ? (
                  <>
                    {' '}
                    Will retry at <strong>{dateTime(e.nextAttemptAt)}</strong>: the receiving server put it off
                    {e.contact ? (
                      <>
                        {' '}
                        (<a href={href('/activity', { contact: e.contact.id, email: e.contact.email, type: 'DEFERRED' })}>why</a>)
                      </>
                    ) : null}
                    .
                  </>
                ) : null}
              </dd>
              <dt>To</dt>
              <dd class="break-anywhere">{e.contact ? <a href={href(`/contacts/${e.contact.id}`)}>{e.to}</a> : e.to}</dd>
              {e.cc.length ? (
                <>
                  <dt>Cc</dt>
                  <dd class="break-anywhere">{e.cc.join(', ')}</dd>
                </>
              ) : null}
              {e.bcc.length ? (
                <>
                  <dt>Bcc</dt>
                  <dd class="break-anywhere">{e.bcc.join(', ')}</dd>
                </>
              ) : null}
              <dt>From</dt>
              <dd class="break-anywhere">{e.from}</dd>
              <dt>Tags</dt>
              <dd>
                {Object.keys(e.tags).length ? (
                  <Tags tags={e.tags} link={(key, value) => href('/activity', { tag: tagFilter(key, value) })} />
                ) : (
                  '—'
                )}
              </dd>
              <dt>Created</dt>
              <dd>{dateTime(e.createdAt)}</dd>
              <dt>Scheduled for</dt>
              <dd>{dateTime(e.scheduledAt)}</dd>
              <dt>Sent</dt>
              <dd>{dateTime(e.sentAt)}</dd>
              {e.campaignId ? (
                <>
                  <dt>Campaign</dt>
                  <dd>
                    <a href={href(`/campaigns/${e.campaignId}`)}>Open the campaign</a>
                  </dd>
                </>
              ) : null}
            </dl>
            {e.status === 'SCHEDULED' ? <Schedule email={e} changed={email.reload} /> : null}
            {e.contact ? (
              <p>
                <a href={href('/activity', { contact: e.contact.id, email: e.contact.email })}>Activity of {e.contact.email}</a>
              </p>
            ) : null}
          </>
        )}
      </WhenLoaded>
    </>
  );
}

import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { useSession } from '../../session';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote, Notice } from '../../ui/feedback';
import { plural } from '../../ui/format';
import { EmptyAudience } from './audience-fields';
import { Form, Submit, TextInput } from '../../ui/form';
import { instant, zone } from '../../ui/instant';
import { Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useAction } from '../../ui/use-load';
import type { Campaign } from './status';

/** A test to a member, then send now or at a time; `onDone` reloads the campaign with the API's message. */
export function SendPanel({ campaign, onDone }: { campaign: Campaign; onDone: (message: string) => Promise<void> }) {
  const { user } = useSession();
  const path = { id: campaign.id };
  const [to, setTo] = useState(user.email);
  const [at, setAt] = useState('');
  const [tested, setTested] = useState<string | null>(null);
  const test = useAction(async () => {
    setTested((await call(api.POST('/campaigns/{id}/test', { params: { path }, body: { email: to } }))).message);
  });
  const send = useAction(async (scheduledFor?: string) => {
    const answer = await call(
      api.POST('/campaigns/{id}/send', { params: { path }, body: scheduledFor === undefined ? {} : { scheduledFor } }),
    );
    await onDone(answer.message);
  });
  const recipients = plural(campaign.totalRecipients, 'contact');
  const nobody = campaign.totalRecipients === 0;
  return (
    <Section title="Send">
      <div class="send-panel">
        <div class="send-now">
          {nobody ? (
            <Notice tone="warn" role="note">
              <p>
                <strong>This campaign reaches nobody now</strong>, so it cannot be sent.
              </p>
              <EmptyAudience subscribedOnly={campaign.type !== 'TRANSACTIONAL'} />
            </Notice>
          ) : (
            <>
              <ConfirmButton
                label="Send now"
                confirm={`Send to ${recipients} now?`}
                primary
                onConfirm={() => send.run()}
                disabled={send.pending}
              />
              <span class="muted">To {recipients}, counted again as it starts.</span>
            </>
          )}
        </div>
        <Form onSubmit={() => void test.run()} class="form inline">
          <TextInput
            label="Send a test to"
            name="email"
            type="email"
            value={to}
            onValue={setTo}
            error={test.error}
            hint="A member of this project; the subject starts with [TEST]."
          />
          <Submit pending={test.pending} busy="Sending test…">
            Send test
          </Submit>
        </Form>
        {tested ? <p role="status">{tested}</p> : null}
        <ErrorNote error={test.error} />
        <Form onSubmit={() => void send.run(instant(at))} class="form inline">
          <TextInput
            label={campaign.status === 'SCHEDULED' ? 'Reschedule for' : 'Schedule for'}
            name="scheduledFor"
            type="datetime-local"
            value={at}
            onValue={setAt}
            error={send.error}
            hint={`Your time zone (${zone}).${campaign.scheduledFor ? ` Now set for ${dateTime(campaign.scheduledFor)}.` : ''}`}
          />
          <Submit pending={send.pending} busy="Scheduling…">
            Schedule
          </Submit>
        </Form>
        <ErrorNote error={send.error} />
      </div>
    </Section>
  );
}

/** Cancel a schedule (back to draft) or a send under way (stops at once). */
export function CancelButton({ campaign, onDone }: { campaign: Campaign; onDone: (message: string) => Promise<void> }) {
  const cancel = useAction(async () => {
    const answer = await call(api.POST('/campaigns/{id}/cancel', { params: { path: { id: campaign.id } } }));
    await onDone(answer.message);
  });
  const sending = campaign.status === 'SENDING';
  return (
    <>
      <ConfirmButton
        label={sending ? 'Stop sending' : 'Cancel schedule'}
        confirm={sending ? 'Stop now? What has left stays sent.' : 'Cancel the schedule? The campaign goes back to draft.'}
        danger
        onConfirm={() => cancel.run()}
        disabled={cancel.pending}
      />
      <ErrorNote error={cancel.error} />
    </>
  );
}

import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { navigate } from '../../router';
import { ConfirmButton, CopyText } from '../../ui/actions';
import { DeleteSection } from '../../ui/delete-section';
import { ErrorNote, Notice, WhenLoaded } from '../../ui/feedback';
import { Form, SaveActions, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { dateTime } from '../../ui/format';
import { useAction, useLoad, useSave } from '../../ui/use-load';
import { Deliveries } from './deliveries';
import { EventsField } from './events-field';
import { EndpointStatus } from './status';
import { eventPatterns, type Endpoint } from './types';
import './webhooks.css';

function Settings({ endpoint, saved }: { endpoint: Endpoint; saved: () => Promise<void> }) {
  const [url, setUrl] = useState(endpoint.url);
  const [description, setDescription] = useState(endpoint.description ?? '');
  const [events, setEvents] = useState(endpoint.events.join('\n'));
  const save = useSave(async () => {
    const body = { url, description: description || null, events: eventPatterns(events) };
    await call(api.PATCH('/webhook-endpoints/{id}', { params: { path: { id: endpoint.id } }, body }));
    await saved();
  });
  const { edited } = save;
  return (
    <Section title="Settings">
      <Form onSubmit={() => void save.run()}>
        <TextInput label="URL" name="url" type="url" required value={url} onValue={edited(setUrl)} error={save.error} />
        <TextInput
          label="Description (optional)"
          name="description"
          maxLength={500}
          value={description}
          onValue={edited(setDescription)}
          error={save.error}
        />
        <EventsField value={events} onValue={edited(setEvents)} error={save.error} />
        <SaveActions save={save} />
      </Form>
    </Section>
  );
}

/** Pausing keeps the endpoint's place in the event stream; enabling resumes from it, after a pause or after failures. */
function Delivery({ endpoint, saved }: { endpoint: Endpoint; saved: () => Promise<void> }) {
  const toggle = useAction(async () => {
    const body = { enabled: !endpoint.enabled };
    await call(api.PATCH('/webhook-endpoints/{id}', { params: { path: { id: endpoint.id } }, body }));
    await saved();
  });
  return (
    <Section title="Delivery">
      <p role="status">
        <EndpointStatus endpoint={endpoint} />{' '}
        {endpoint.enabled
          ? 'Events are delivered as they happen.'
          : endpoint.disabledReason
            ? `Stopped: ${endpoint.disabledReason}. Events are kept; enabling delivers them from where it stopped.`
            : 'Paused: events are kept and delivered from where it stopped once enabled again.'}
      </p>
      <button type="button" class={endpoint.enabled ? '' : 'primary'} disabled={toggle.pending} onClick={() => void toggle.run()}>
        {endpoint.enabled ? 'Pause delivery' : 'Enable delivery'}
      </button>
      <ErrorNote error={toggle.error} />
    </Section>
  );
}

function Secret({ endpoint }: { endpoint: Endpoint }) {
  const [fresh, setFresh] = useState<string | null>(null);
  const rotate = useAction(async () => {
    const rotated = await call(api.POST('/webhook-endpoints/{id}/rotate-secret', { params: { path: { id: endpoint.id } } }));
    setFresh(rotated.secret);
  });
  return (
    <Section title="Signing secret">
      <p>
        Check each request's <code>webhook-signature</code> with it (the Standard Webhooks libraries do).
      </p>
      {fresh ? (
        <div class="webhook-secret">
          <Notice tone="good" role="status">
            <p>The new secret, shown only now. The previous one keeps signing beside it for 24 hours.</p>
            <CopyText label="signing secret" value={fresh} />
          </Notice>
        </div>
      ) : (
        <p class="webhook-secret">
          <code>{endpoint.secret}</code>
        </p>
      )}
      <ConfirmButton label="Rotate secret" confirm="Make a new secret now?" disabled={rotate.pending} onConfirm={() => rotate.run()} />
      <ErrorNote error={rotate.error} />
    </Section>
  );
}

/** One endpoint: its settings, delivery state, secret, test message, delivery log and replay. */
export function WebhookEndpoint({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const loaded = useLoad(() => call(api.GET('/webhook-endpoints/{id}', { params: { path: { id } } })), [id]);
  const shown = loaded.data;
  return (
    <>
      <PageHeader
        title={shown ? shown.description || new URL(shown.url).host : 'Webhook endpoint'}
        back={{ path: '/webhooks', label: 'All endpoints' }}
      />
      <WhenLoaded loaded={loaded}>
        {(endpoint) => (
          <>
            <p class="muted endpoint-url">
              {endpoint.url} · added {dateTime(endpoint.createdAt)}
            </p>
            <Delivery endpoint={endpoint} saved={loaded.reload} />
            <Settings key={endpoint.id} endpoint={endpoint} saved={loaded.reload} />
            <Secret endpoint={endpoint} />
            <Deliveries endpointId={endpoint.id} />
            <DeleteSection
              what="endpoint"
              name={endpoint.url}
              consequence="Its queue and delivery log go with it; nothing more is sent to it."
              remove={async () => {
                await call(api.DELETE('/webhook-endpoints/{id}', { params: { path: { id } } }));
                navigate('/webhooks');
              }}
            />
          </>
        )}
      </WhenLoaded>
    </>
  );
}

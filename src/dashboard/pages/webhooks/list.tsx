import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href } from '../../router';
import { useProject } from '../../session';
import { CopyText } from '../../ui/actions';
import { ErrorNote, Notice, WhenLoaded } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';
import { EventsField } from './events-field';
import { EndpointStatus } from './status';
import { eventPatterns, eventsText, type Endpoint } from './types';
import './webhooks.css';

/**
 * The endpoint just added, whose secret the API shows in full this once. Pointed at the development webhook
 * capture (`capture`), it says where to paste the secret: the capture checks signatures only with secrets it knows.
 */
function Added({ endpoint, capture }: { endpoint: Endpoint; capture: string | null }) {
  const capturePage = capture && endpoint.url.startsWith(new URL(capture).origin) ? `${new URL(capture).origin}/` : null;
  return (
    <div class="webhook-secret">
      <Notice tone="good" role="status">
        <p>
          <a href={href(`/webhooks/${endpoint.id}`)}>{endpoint.url}</a> is added. Its signing secret, shown only now:
        </p>
        <CopyText label="signing secret" value={endpoint.secret} />
        {capturePage ? (
          <p>
            Paste it on the <a href={capturePage}>webhook capture's page</a> (“Verify with this secret”): the capture then checks this
            endpoint's requests, those already received too.
          </p>
        ) : null}
      </Notice>
    </div>
  );
}

/** The project's webhook endpoints (docs/webhooks.md): each receives the selected events, signed. */
export function Webhooks() {
  const project = useProject();
  const list = useLoad(() => call(api.GET('/webhook-endpoints')), [project.id]);
  const capture = useLoad(() => call(api.GET('/config')), []).data?.development?.webhookCaptureUrl ?? null;
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState('');
  const [added, setAdded] = useState<Endpoint | null>(null);
  const add = useAction(async () => {
    const endpoint = await call(
      api.POST('/webhook-endpoints', { body: { url, description: description || null, events: eventPatterns(events) } }),
    );
    setAdded(endpoint);
    setUrl('');
    setDescription('');
    setEvents('');
    await list.reload();
  });
  return (
    <>
      <PageHeader title="Webhooks" />
      <Section title="Add an endpoint">
        <p>
          Postwire POSTs each selected event to the endpoint, in the order they happened, signed the Standard Webhooks way, and retries for
          3 days while it fails.
        </p>
        {capture ? (
          <Notice role="note">
            <p>
              Trying it on this machine? The development webhook capture receives at <code>{capture}</code> and shows each request with its
              signature checked.{' '}
              <button type="button" class="link" onClick={() => setUrl(capture)}>
                Use the webhook capture
              </button>
            </p>
          </Notice>
        ) : null}
        <Form onSubmit={() => void add.run()}>
          <TextInput
            label="URL"
            name="url"
            type="url"
            placeholder="https://example.com/postwire"
            required
            value={url}
            onValue={setUrl}
            error={add.error}
          />
          <TextInput
            label="Description (optional)"
            name="description"
            maxLength={500}
            value={description}
            onValue={setDescription}
            error={add.error}
          />
          <EventsField value={events} onValue={setEvents} error={add.error} />
          <ErrorNote error={add.error} />
          <div class="actions">
            <Submit pending={add.pending} busy="Adding…">
              Add endpoint
            </Submit>
          </div>
        </Form>
        {added ? <Added endpoint={added} capture={capture} /> : null}
      </Section>
      <WhenLoaded loaded={list}>
        {({ data }) => (
          <Table
            caption="Webhook endpoints"
            rowKey={(e) => e.id}
            rows={data}
            empty="No endpoint yet."
            columns={[
              {
                title: 'Endpoint',
                cell: (e) => (
                  <>
                    <a class="endpoint-url" href={href(`/webhooks/${e.id}`)}>
                      {e.url}
                    </a>
                    {e.description ? <div class="muted">{e.description}</div> : null}
                  </>
                ),
              },
              { title: 'Status', cell: (e) => <EndpointStatus endpoint={e} /> },
              { title: 'Events', cell: (e) => eventsText(e.events), wide: true },
              { title: 'Added', cell: (e) => dateTime(e.createdAt), wide: true },
            ]}
          />
        )}
      </WhenLoaded>
    </>
  );
}

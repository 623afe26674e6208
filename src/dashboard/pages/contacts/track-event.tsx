import { useState } from 'preact/hooks';
import { ApiFailure, api, call } from '../../api/client';
import type { RequestBody } from '../../api/types';
import { ErrorNote } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { useAction } from '../../ui/use-load';

function jsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiFailure(400, 'BAD_REQUEST', 'Data must be a JSON object', 'Write it like {"plan": "pro"}, or leave it empty.', [
      { field: 'data', message: 'Not a JSON object' },
    ]);
  }
  return value as Record<string, unknown>;
}

/**
 * Tracks an event on this contact as an integration would (`POST /events/track`, the dashboard's alias of
 * /v1/track): it triggers the automations listening for it and joins the timeline.
 */
export function TrackEvent({ email, onTracked }: { email: string; onTracked: () => void }) {
  const [event, setEvent] = useState('');
  const [data, setData] = useState('');
  const [tracked, setTracked] = useState<string | null>(null);
  const track = useAction(async () => {
    setTracked(null);
    const parsed = data.trim() === '' ? undefined : jsonObject(data);
    await call(
      api.POST('/events/track', {
        body: { email, event, ...(parsed ? { data: parsed as RequestBody<'/events/track', 'post'>['data'] } : {}) },
      }),
    );
    setTracked(event);
    onTracked();
  });
  return (
    <Form class="form inline" onSubmit={() => void track.run()}>
      <TextInput label="Event name" name="event" required value={event} onValue={setEvent} error={track.error} placeholder="signed-up" />
      <TextInput
        label="Data (JSON, optional)"
        name="data"
        value={data}
        onValue={setData}
        error={track.error}
        placeholder='{"plan": "pro"}'
      />
      <Submit pending={track.pending} busy="Tracking…">
        Track event
      </Submit>
      <ErrorNote error={track.error} />
      {tracked ? <p role="status">Tracked {tracked}.</p> : null}
    </Form>
  );
}

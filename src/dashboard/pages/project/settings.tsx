import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { can, useProject, useSession, type Project } from '../../session';
import { ConfirmButton } from '../../ui/actions';
import { ErrorNote } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { useAction } from '../../ui/use-load';

type TrackingMode = Project['trackingMode'];
const TRACKING: Array<{ value: TrackingMode; label: string }> = [
  { value: 'ENABLED', label: 'Every email' },
  { value: 'MARKETING_ONLY', label: 'Marketing emails only' },
  { value: 'DISABLED', label: 'No email' },
];

export function ProjectSettings() {
  const project = useProject();
  const { refresh } = useSession();
  const [name, setName] = useState(project.name);
  const [tracking, setTracking] = useState<TrackingMode>(project.trackingMode);
  const [rate, setRate] = useState(project.emailRatePerSecond === null ? '' : String(project.emailRatePerSecond));
  const [timeZone, setTimeZone] = useState(project.timeZone);
  const [capMax, setCapMax] = useState(project.frequencyCap ? String(project.frequencyCap.maxEmails) : '');
  const [capDays, setCapDays] = useState(project.frequencyCap ? String(project.frequencyCap.windowDays) : '');
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    await call(
      api.PATCH('/users/@me/projects/{id}', {
        params: { path: { id: project.id } },
        body: {
          name,
          trackingMode: tracking,
          emailRatePerSecond: rate === '' ? null : Number(rate),
          timeZone,
          // Both empty: no cap; one empty is sent as 0, which the API refuses naming the field.
          frequencyCap: capMax === '' && capDays === '' ? null : { maxEmails: Number(capMax), windowDays: Number(capDays) },
        },
      }),
    );
    await refresh();
    setSaved(true);
  });
  const danger = useAction(async (what: 'reset' | 'delete') => {
    if (what === 'reset') await call(api.POST('/users/@me/projects/{id}/reset', { params: { path: { id: project.id } } }));
    else await call(api.DELETE('/users/@me/projects/{id}', { params: { path: { id: project.id } } }));
    await refresh();
  });
  const editable = can.manage(project.role);
  return (
    <>
      <PageHeader title="Project settings" />
      <Section title="General">
        <Form onSubmit={() => void save.run()}>
          <fieldset disabled={!editable}>
            <TextInput label="Name" name="name" value={name} onValue={setName} error={save.error} required />
            <Select
              label="Track opens and clicks in"
              name="trackingMode"
              value={tracking}
              options={TRACKING}
              onValue={setTracking}
              error={save.error}
            />
            <TextInput
              label="Emails per second"
              name="emailRatePerSecond"
              type="number"
              min={0}
              hint="Per kind of email. Empty uses the deployment's default."
              value={rate}
              onValue={setRate}
              error={save.error}
            />
            <TextInput
              label="Time zone"
              name="timeZone"
              hint="An IANA zone, e.g. Europe/Paris: automations' local times for contacts without data.timezone."
              value={timeZone}
              onValue={setTimeZone}
              error={save.error}
            />
            <div class="form inline">
              <TextInput
                label="Marketing emails per contact at most"
                name="frequencyCap.maxEmails"
                type="number"
                min={1}
                hint="Across campaigns and automations; transactional emails are never capped. Both empty: no cap."
                value={capMax}
                onValue={setCapMax}
                error={save.error}
              />
              <TextInput
                label="In any (days)"
                name="frequencyCap.windowDays"
                type="number"
                min={1}
                value={capDays}
                onValue={setCapDays}
                error={save.error}
              />
            </div>
          </fieldset>
          <ErrorNote error={save.error} />
          {saved ? <p role="status">Saved.</p> : null}
          {editable ? <Submit pending={save.pending}>Save</Submit> : <p class="muted">Only owners and admins change these settings.</p>}
        </Form>
      </Section>
      {can.own(project.role) ? (
        <Section title="Danger zone">
          <p>
            Resetting deletes every contact, event, template, campaign and automation of this project. Deleting also removes the project.
          </p>
          <div class="actions">
            <ConfirmButton label="Reset data" confirm="Delete all data of this project?" danger onConfirm={() => danger.run('reset')} />
            <ConfirmButton
              label="Delete project"
              confirm={`Delete ${project.name} for good?`}
              danger
              onConfirm={() => danger.run('delete')}
            />
          </div>
          <ErrorNote error={danger.error} />
        </Section>
      ) : null}
    </>
  );
}

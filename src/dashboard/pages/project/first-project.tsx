import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { useSession } from '../../session';
import { ErrorNote } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { useAction } from '../../ui/use-load';
import { AuthFrame } from '../auth/frame';

/** A user without a project (just signed up, or removed from every one) starts here. */
export function FirstProject() {
  const { refresh, choose, logout } = useSession();
  const [name, setName] = useState('');
  const create = useAction(async () => {
    const project = await call(api.POST('/users/@me/projects', { body: { name } }));
    choose(project.id);
    await refresh();
  });
  return (
    <AuthFrame title="Create your first project">
      <p>A project holds its contacts, templates, campaigns and automations, and has its own API keys.</p>
      <Form onSubmit={() => void create.run()}>
        <TextInput label="Project name" name="name" required value={name} onValue={setName} error={create.error} />
        <ErrorNote error={create.error} />
        <Submit pending={create.pending} busy="Creating…">
          Create project
        </Submit>
      </Form>
      <p>
        <button type="button" class="link" onClick={() => void logout()}>
          Log out
        </button>
      </p>
    </AuthFrame>
  );
}

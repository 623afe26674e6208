import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { navigate } from '../../router';
import { ErrorNote } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { Section } from '../../ui/layout';
import { useAction } from '../../ui/use-load';

/**
 * `POST /contacts` creates and opens the new contact. An email that already is a contact opens that contact
 * untouched: `POST /contacts` would upsert it, and adding should not silently change someone's subscription.
 */
export function CreateContact() {
  const [email, setEmail] = useState('');
  const [subscribed, setSubscribed] = useState<'true' | 'false'>('true');
  const create = useAction(async () => {
    const existing = (await call(api.POST('/contacts/lookup', { body: { emails: [email] } }))).found[0];
    const contact = existing ?? (await call(api.POST('/contacts', { body: { email, subscribed: subscribed === 'true' } })));
    navigate(`/contacts/${contact.id}`);
  });
  return (
    <Section title="Add a contact">
      <Form onSubmit={() => void create.run()} class="form inline">
        <TextInput label="Email" name="email" type="email" required value={email} onValue={setEmail} error={create.error} />
        <Select
          label="Subscribed"
          name="subscribed"
          value={subscribed}
          options={[
            { value: 'true', label: 'Yes' },
            { value: 'false', label: 'No' },
          ]}
          onValue={setSubscribed}
        />
        <Submit pending={create.pending} busy="Adding…">
          Add contact
        </Submit>
      </Form>
      <ErrorNote error={create.error} />
    </Section>
  );
}

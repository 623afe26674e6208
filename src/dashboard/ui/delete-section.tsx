import { ConfirmButton } from './actions';
import { ErrorNote } from './feedback';
import { Section } from './layout';
import { useAction } from './use-load';

/**
 * The "Delete" block of a resource's page: what deleting does, a button that asks again, and the API's refusal
 * (a template in use, a segment a campaign sends to).
 */
export function DeleteSection({
  what,
  name,
  consequence,
  remove,
}: {
  what: string;
  name: string;
  consequence: string;
  remove: () => Promise<void>;
}) {
  const action = useAction(remove);
  return (
    <Section title="Delete">
      <p>{consequence}</p>
      <ConfirmButton label={`Delete ${what}`} confirm={`Delete ${name}?`} danger disabled={action.pending} onConfirm={() => action.run()} />
      <ErrorNote error={action.error} />
    </Section>
  );
}

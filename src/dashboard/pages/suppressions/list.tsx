import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { href } from '../../router';
import { useProject } from '../../session';
import { ConfirmButton } from '../../ui/actions';
import { Badge, Empty, ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { CursorPager, Table, useCursorTrail } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useDebounced } from '../../ui/use-debounced';
import { useAction, useLoad } from '../../ui/use-load';

type Entry = Answer<'/suppressions', 'get'>['data'][number];
type Reason = '' | Entry['reason'];

const REASONS: Array<{ value: Reason; label: string }> = [
  { value: '', label: 'Every reason' },
  { value: 'BOUNCE', label: 'Bounced' },
  { value: 'COMPLAINT', label: 'Complained' },
  { value: 'MANUAL', label: 'Added by hand' },
];
const TONES = { BOUNCE: 'bad', COMPLAINT: 'warn', MANUAL: 'neutral' } as const;

/** Addresses typed one per line, or separated by commas or spaces. */
const addressesOf = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

function AddSuppressions({ added }: { added: () => void }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<string | null>(null);
  const add = useAction(async () => {
    const answer = await call(api.POST('/suppressions', { body: { emails: addressesOf(text) } }));
    setResult(`${answer.added.toLocaleString()} added, ${answer.already.toLocaleString()} already on the list.`);
    setText('');
    added();
  });
  return (
    <Section title="Add addresses">
      <Form onSubmit={() => void add.run()} class="form inline">
        <TextInput
          label="Addresses"
          name="emails"
          value={text}
          onValue={(v) => (setText(v), setResult(null))}
          error={add.error}
          hint="Separated by commas or spaces; no email goes to them, marketing or transactional, until removed."
        />
        <Submit pending={add.pending} busy="Adding…">
          Add
        </Submit>
      </Form>
      {result ? <p role="status">{result}</p> : null}
      <ErrorNote error={add.error} />
    </Section>
  );
}

/**
 * The project's suppression list (docs/suppressions.md): the addresses it does not mail, because they
 * bounced, complained or were added by hand; searched and paged by the API. Removing one lets mail go to it again.
 */
export function Suppressions() {
  const project = useProject();
  const [search, setSearch] = useState('');
  const [reason, setReason] = useState<Reason>('');
  const { trail, setTrail, cursor, restart } = useCursorTrail();
  const term = useDebounced(search.trim());
  const page = useLoad(
    () => call(api.GET('/suppressions', { params: { query: { search: term || undefined, reason: reason || undefined, cursor } } })),
    [project.id, term, reason, cursor],
  );
  const remove = useAction(async (email: string) => {
    await call(api.DELETE('/suppressions/{email}', { params: { path: { email } } }));
    await page.reload();
  });
  return (
    <>
      <PageHeader title="Suppressions" />
      <AddSuppressions added={() => (setTrail([]), void page.reload())} />
      <div class="toolbar" role="search">
        <TextInput label="Search by address" type="search" value={search} onValue={restart(setSearch)} />
        <Select label="Reason" value={reason} options={REASONS} onValue={restart(setReason)} />
      </div>
      {page.data && !cursor ? (
        <p class="muted" role="status">
          {page.data.total.toLocaleString()} suppressed address{page.data.total === 1 ? '' : 'es'}
          {term ? ` matching “${term}”` : ''}
        </p>
      ) : null}
      <ErrorNote error={remove.error} />
      <WhenLoaded loaded={page}>
        {({ data: rows, hasMore, cursor: next }) =>
          rows.length === 0 ? (
            <Empty>
              {term || reason
                ? 'No address matches.'
                : 'No suppressed address: permanent bounces and complaints are added here as they happen.'}
            </Empty>
          ) : (
            <>
              <Table<Entry>
                caption="Suppressed addresses, newest first"
                rowKey={(e) => e.email}
                rows={rows}
                columns={[
                  { title: 'Address', cell: (e) => <span class="break-anywhere">{e.email}</span> },
                  {
                    title: 'Reason',
                    cell: (e) => <Badge tone={TONES[e.reason]}>{REASONS.find((r) => r.value === e.reason)!.label}</Badge>,
                  },
                  { title: 'Since', cell: (e) => dateTime(e.createdAt), wide: true },
                  { title: 'Email', cell: (e) => (e.emailId ? <a href={href(`/emails/${e.emailId}`)}>The email</a> : '—'), wide: true },
                  {
                    title: 'Remove',
                    cell: (e) => (
                      <ConfirmButton
                        label="Remove"
                        confirm={`Mail ${e.email} again?`}
                        onConfirm={() => remove.run(e.email)}
                        disabled={remove.pending}
                      />
                    ),
                  },
                ]}
              />
              <CursorPager trail={trail} next={hasMore ? next : null} onMove={setTrail} />
            </>
          )
        }
      </WhenLoaded>
    </>
  );
}

import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { ErrorNote, Loading } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { DeleteSection } from '../../ui/delete-section';
import { useAction, useLoad } from '../../ui/use-load';
import { TreeEditor, type FilterCatalog } from '../../filters/builder';
import { contactCatalog } from '../../filters/catalog';
import { fromTree, newTree, toTree, type TreeDraft } from '../../filters/model';
import { LiveCount } from '../../filters/live-count';
import { SegmentMembers } from './members';
import { StaticMembers } from './static-members';
import type { Segment } from './types';
import './segments.css';

type SegmentType = Segment['type'];

/** `/segments/new` and `/segments/:id`: name, the condition with its live count, and the members. */
export function SegmentEditor({ params }: { params: Record<string, string> }) {
  const id = params.id;
  const loaded = useLoad(async () => {
    const [segment, catalog] = await Promise.all([
      id ? call(api.GET('/segments/{id}', { params: { path: { id } } })) : null,
      contactCatalog(id),
    ]);
    return { segment, catalog };
  }, [id]);
  if (!loaded.data) return loaded.error ? <ErrorNote error={loaded.error} /> : <Loading />;
  return <SegmentForm segment={loaded.data.segment} catalog={loaded.data.catalog} />;
}

function SegmentForm({ segment: initial, catalog }: { segment: Segment | null; catalog: FilterCatalog }) {
  const [segment, setSegment] = useState(initial);
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [type, setType] = useState<SegmentType>(initial?.type ?? 'DYNAMIC');
  const [track, setTrack] = useState(initial?.trackMembership ?? false);
  const [draft, setDraft] = useState<TreeDraft>(() => (initial?.condition ? fromTree(initial.condition) : newTree()));
  const [saved, setSaved] = useState(false);
  const typeOf = (field: string) => catalog.fields.find((f) => f.field === field)?.type;
  const tree = toTree(draft, typeOf);
  const dynamic = type === 'DYNAMIC';
  const edit = (tree: TreeDraft) => {
    setDraft(tree);
    setSaved(false);
  };

  const save = useAction(async () => {
    const fields = { name, description: description.trim() === '' ? null : description, trackMembership: track };
    if (segment) {
      const body = dynamic ? { ...fields, condition: tree } : fields;
      setSegment(await call(api.PATCH('/segments/{id}', { params: { path: { id: segment.id } }, body })));
    } else {
      const created = await call(api.POST('/segments', { body: { ...fields, type, ...(dynamic ? { condition: tree } : {}) } }));
      navigate(`/segments/${created.id}`);
    }
    setSaved(true);
  });

  return (
    <>
      <PageHeader title={segment ? segment.name : 'New segment'}>
        <a href={href('/segments')}>All segments</a>
      </PageHeader>
      <Form onSubmit={() => void save.run()} class="form">
        <div class="form-row">
          <TextInput label="Name" name="name" required maxLength={100} value={name} onValue={setName} error={save.error} />
          <TextInput
            label="Description"
            name="description"
            maxLength={500}
            value={description}
            onValue={setDescription}
            error={save.error}
          />
          {segment ? null : (
            <Select
              label="Kind"
              name="type"
              value={type}
              options={[
                { value: 'DYNAMIC', label: 'Dynamic: contacts matching a condition' },
                { value: 'STATIC', label: 'Static: a list of contacts' },
              ]}
              onValue={setType}
              error={save.error}
            />
          )}
        </div>
        {dynamic ? (
          <>
            <label class="checkbox">
              <input type="checkbox" checked={track} onChange={(e) => setTrack(e.currentTarget.checked)} />
              Track membership (emit entry and exit events as contacts join and leave)
            </label>
            <fieldset class="condition">
              <legend>Condition</legend>
              <TreeEditor tree={draft} catalog={catalog} onChange={edit} />
            </fieldset>
            <LiveCount tree={tree} segmentId={segment?.id} />
          </>
        ) : null}
        <ErrorNote error={save.error} />
        <div class="actions">
          <Submit pending={save.pending} busy="Saving…">
            {segment ? 'Save' : 'Create segment'}
          </Submit>
          {saved && !save.pending ? (
            <span role="status" class="muted">
              Saved: {segment?.memberCount.toLocaleString()} {segment?.memberCount === 1 ? 'member' : 'members'}.
            </span>
          ) : null}
        </div>
      </Form>
      {segment ? (
        <>
          {segment.type === 'STATIC' ? <StaticMembers id={segment.id} onChange={setSegment} /> : null}
          <SegmentMembers id={segment.id} version={segment.updatedAt + segment.memberCount} />
          <DeleteSection
            what="segment"
            name={segment.name}
            consequence="Segments that name this one then count it as empty; an active campaign sending to it blocks the deletion."
            remove={async () => {
              await call(api.DELETE('/segments/{id}', { params: { path: { id: segment.id } } }));
              navigate('/segments');
            }}
          />
        </>
      ) : null}
    </>
  );
}

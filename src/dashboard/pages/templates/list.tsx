import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { ConfirmButton } from '../../ui/actions';
import { Badge, Empty, ErrorNote, Loading } from '../../ui/feedback';
import { Select, TextInput } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { OffsetPager, Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useDebounced } from '../../ui/use-debounced';
import { useAction, useLoad } from '../../ui/use-load';
import { LiquidText } from '../../ui/liquid';
import { TEMPLATE_TYPES, typeLabel, type Template, type TemplateType } from './types';

const PAGE_SIZE = 20;

/** The project's templates, searched and paged by the API; the page, search and type live in the address. */
export function TemplateList({ query }: { query: URLSearchParams }) {
  const page = Math.max(1, Number(query.get('page')) || 1);
  const type = (query.get('type') ?? '') as TemplateType | '';
  const [search, setSearch] = useState(query.get('search') ?? '');
  const searched = useDebounced(search.trim());
  const go = (next: { page?: number; search?: string; type?: string }) =>
    navigate('/templates', {
      page: next.page && next.page > 1 ? String(next.page) : undefined,
      search: next.search ?? searched,
      type: next.type ?? type,
    });
  useEffect(() => {
    if (searched !== (query.get('search') ?? '')) go({ search: searched });
  }, [searched]);
  const list = useLoad(
    () =>
      call(
        api.GET('/templates', {
          params: { query: { page, pageSize: PAGE_SIZE, search: searched || undefined, type: type || undefined, sort: 'updatedAt' } },
        }),
      ),
    [page, searched, type],
  );
  const remove = useAction(async (t: Template) => {
    await call(api.DELETE('/templates/{id}', { params: { path: { id: t.id } } }));
    await list.reload();
  });
  return (
    <>
      <PageHeader title="Templates">
        <a class="button primary" href={href('/templates/new')}>
          New template
        </a>
      </PageHeader>
      <div class="toolbar" role="search">
        <TextInput label="Search" type="search" placeholder="Name, description or subject" value={search} onValue={setSearch} />
        <Select
          label="Type"
          value={type}
          options={[{ value: '', label: 'All types' }, ...TEMPLATE_TYPES]}
          onValue={(value) => go({ type: value })}
        />
      </div>
      <ErrorNote error={list.error ?? remove.error} />
      {!list.data ? (
        <Loading />
      ) : list.data.total === 0 ? (
        <Empty>
          {searched || type ? 'No template matches.' : 'No templates yet. Write one to send it from campaigns, automations or /v1/send.'}
        </Empty>
      ) : (
        <>
          <p class="muted" role="status">
            {list.data.total.toLocaleString()} {list.data.total === 1 ? 'template' : 'templates'}
          </p>
          <Table
            caption="Templates"
            rowKey={(t) => t.id}
            rows={list.data.data}
            columns={[
              { title: 'Name', cell: (t) => <a href={href(`/templates/${t.id}`)}>{t.name}</a> },
              { title: 'Subject', cell: (t) => <LiquidText text={t.subject} />, wide: true },
              { title: 'Type', cell: (t) => <Badge>{typeLabel(t.type)}</Badge> },
              { title: 'Updated', cell: (t) => dateTime(t.updatedAt), wide: true },
              {
                title: 'Actions',
                cell: (t) => (
                  <ConfirmButton
                    label="Delete"
                    confirm={`Delete ${t.name}?`}
                    danger
                    disabled={remove.pending}
                    onConfirm={() => remove.run(t)}
                  />
                ),
              },
            ]}
          />
          <OffsetPager page={list.data.page} totalPages={list.data.totalPages} onPage={(p) => go({ page: p })} />
        </>
      )}
    </>
  );
}

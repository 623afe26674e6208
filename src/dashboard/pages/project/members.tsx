import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { Answer } from '../../api/types';
import { can, useProject, useSession, type Role } from '../../session';
import { ConfirmButton } from '../../ui/actions';
import { Badge, ErrorNote, WhenLoaded } from '../../ui/feedback';
import { Form, Select, Submit, TextInput } from '../../ui/form';
import { PageHeader, Section } from '../../ui/layout';
import { Table } from '../../ui/lists';
import { dateTime } from '../../ui/format';
import { useAction, useLoad } from '../../ui/use-load';

type Member = Answer<'/projects/{id}/members', 'get'>[number];
const ROLES: Array<{ value: Role; label: string }> = [
  { value: 'MEMBER', label: 'Member' },
  { value: 'ADMIN', label: 'Admin' },
  { value: 'OWNER', label: 'Owner' },
];

export function Members() {
  const project = useProject();
  const { user, refresh } = useSession();
  const path = { id: project.id };
  const members = useLoad(() => call(api.GET('/projects/{id}/members', { params: { path } })), [project.id]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  const invite = useAction(async () => {
    await call(api.POST('/projects/{id}/members', { params: { path }, body: { email, role } }));
    setEmail('');
    await members.reload();
  });
  // The role being saved shows in its select until the list reloads; a refusal puts the stored one back.
  const [saving, setSaving] = useState<{ userId: string; role: Role } | null>(null);
  const change = useAction(async (member: Member, next: Role) => {
    setSaving({ userId: member.userId, role: next });
    try {
      await call(
        api.PATCH('/projects/{id}/members/{userId}', { params: { path: { ...path, userId: member.userId } }, body: { role: next } }),
      );
      await members.reload();
      if (member.userId === user.id) await refresh();
    } finally {
      setSaving(null);
    }
  });
  const remove = useAction(async (member: Member) => {
    await call(api.DELETE('/projects/{id}/members/{userId}', { params: { path: { ...path, userId: member.userId } } }));
    if (member.userId === user.id) await refresh();
    else await members.reload();
  });
  const manager = can.manage(project.role);
  /** docs/roles.md: only an OWNER touches owners or makes one. */
  const mayEdit = (m: Member) => manager && (project.role === 'OWNER' || m.role !== 'OWNER');
  const roles = project.role === 'OWNER' ? ROLES : ROLES.filter((r) => r.value !== 'OWNER');
  /** The API refuses the last OWNER's leaving (docs/roles.md); an invited OWNER does not count, as there. */
  const onlyOwner = (m: Member) =>
    m.role === 'OWNER' && !m.pending && members.data?.filter((o) => o.role === 'OWNER' && !o.pending).length === 1;
  return (
    <>
      <PageHeader title="Team" />
      <ErrorNote error={change.error ?? remove.error} />
      <WhenLoaded loaded={members}>
        {(rows) => (
          <Table
            caption="Members of this project"
            rowKey={(m) => m.userId}
            rows={rows}
            columns={[
              {
                title: 'Email',
                cell: (m) => (
                  <>
                    {m.email} {m.pending ? <Badge tone="warn">invited</Badge> : null}
                  </>
                ),
              },
              {
                title: 'Role',
                cell: (m) =>
                  mayEdit(m) ? (
                    <select
                      aria-label={`Role of ${m.email}`}
                      value={saving?.userId === m.userId ? saving.role : m.role}
                      onChange={(e) => void change.run(m, e.currentTarget.value as Role)}
                    >
                      {roles.map((r) => (
                        <option key={r.value} value={r.value}>
                          {r.label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    m.role.charAt(0) + m.role.slice(1).toLowerCase()
                  ),
              },
              { title: 'Joined', cell: (m) => dateTime(m.joinedAt), wide: true },
              {
                title: 'Actions',
                cell: (m) =>
                  m.userId === user.id && onlyOwner(m) ? (
                    <span class="muted">The only owner: make someone else an owner to leave</span>
                  ) : mayEdit(m) || m.userId === user.id ? (
                    <ConfirmButton
                      label={m.userId === user.id ? 'Leave' : 'Remove'}
                      confirm={m.userId === user.id ? 'Leave this project?' : `Remove ${m.email}?`}
                      danger
                      onConfirm={() => remove.run(m)}
                    />
                  ) : null,
              },
            ]}
          />
        )}
      </WhenLoaded>
      {manager ? (
        <Section title="Invite someone">
          <Form onSubmit={() => void invite.run()} class="form inline">
            <TextInput label="Email" name="email" type="email" required value={email} onValue={setEmail} error={invite.error} />
            <Select label="Role" name="role" value={role} options={roles} onValue={setRole} error={invite.error} />
            <Submit pending={invite.pending} busy="Inviting…">
              Invite
            </Submit>
          </Form>
          <ErrorNote error={invite.error} />
        </Section>
      ) : null}
    </>
  );
}

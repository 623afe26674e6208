import { randomUUID } from 'node:crypto';
import { startStack, type TestStack } from '../helpers/stack';
import { bearer } from '../domains/helpers';
import { Template } from '../../src/modules/templates/entities';
import { deleteTemplate, templateUsage } from '../../src/modules/templates/service';
import type { TemplateUsageSource } from '../../src/modules/templates/usage';
import { senderTenant } from '../helpers/tenants';

/**
 * Campaigns and workflows report their template references through sources they pass to templateRoutes.
 * Until those modules exist, these sources stand in for them; the templates and the database are real.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ terminateWorkflows: true });
});
afterAll(() => stack?.close());

const em = () => stack.deps.orm.em.fork();

async function templateOfNewTenant(): Promise<{ projectId: string; templateId: string }> {
  const { project, domain } = await senderTenant(stack);
  const res = await stack
    .http()
    .post('/templates')
    .set('Authorization', bearer(project))
    .send({ name: 'T', subject: 'S', body: 'B', from: `a@${domain}` })
    .expect(201);
  return { projectId: project.id, templateId: res.body.id };
}

const ref = (name: string) => ({ id: randomUUID(), name });

describe('template usage sources', () => {
  it('merges what every source reports, by name, each reference once, and passes the template and project', async () => {
    const { projectId, templateId } = await templateOfNewTenant();
    const [spring, autumn, onboarding] = [ref('Spring sale'), ref('Autumn sale'), ref('Onboarding')];
    const seen: string[] = [];
    const campaigns: TemplateUsageSource = async (_em, p, t) => {
      seen.push(`${p}/${t}`);
      return { campaigns: [spring, autumn] };
    };
    const workflows: TemplateUsageSource = async () => ({ workflows: [onboarding], campaigns: [spring] });
    expect(await templateUsage(em(), [campaigns, workflows], projectId, templateId)).toEqual({
      campaigns: [autumn, spring],
      workflows: [onboarding],
      forms: [],
    });
    expect(seen).toEqual([`${projectId}/${templateId}`]);
  });

  it('asks no source about a template the project does not have', async () => {
    const { projectId } = await templateOfNewTenant();
    const other = await templateOfNewTenant();
    const asked: string[] = [];
    const source: TemplateUsageSource = async (_em, _p, t) => {
      asked.push(t);
      return {};
    };
    await expect(templateUsage(em(), [source], projectId, other.templateId)).rejects.toMatchObject({
      status: 404,
      code: 'TEMPLATE_NOT_FOUND',
    });
    expect(asked).toEqual([]);
  });
});

describe('deleting a template that is in use', () => {
  it('is refused with 409 while a workflow step uses it, and the template stays', async () => {
    const { projectId, templateId } = await templateOfNewTenant();
    const workflow = ref('Welcome series');
    const source: TemplateUsageSource = async () => ({ workflows: [workflow] });
    await expect(deleteTemplate(em(), [source], projectId, templateId)).rejects.toMatchObject({
      status: 409,
      code: 'CONFLICT',
      extra: { details: { workflows: [workflow] } },
    });
    expect(await em().count(Template, { id: templateId })).toBe(1);
  });

  it('goes ahead when only campaigns reference it: they keep their own copy of the content', async () => {
    const { projectId, templateId } = await templateOfNewTenant();
    const source: TemplateUsageSource = async () => ({ campaigns: [ref('Launch')] });
    await deleteTemplate(em(), [source], projectId, templateId);
    expect(await em().count(Template, { id: templateId })).toBe(0);
  });
});

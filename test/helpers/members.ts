import type { Role } from '../../src/modules/projects/entities';
import { signupUser, type TestProject, type TestUser } from './fixtures';
import type { TestStack } from './stack';

/** A new user who signs up and is invited into the project with the given role by `by`. */
export async function joinedUser(stack: TestStack, by: TestUser, project: TestProject, role: Role): Promise<TestUser> {
  const user = await signupUser(stack);
  await stack.http().post(`/projects/${project.id}/members`).set('Cookie', by.cookie).send({ email: user.email, role }).expect(201);
  return user;
}

import type { Role } from '../../src/modules/projects/entities';
import { signupUser, type TestProject, type TestUser } from './fixtures';
import { linkToken, waitForMail } from './mail';
import type { TestStack } from './stack';

export const INVITE_SUBJECT = /^You have been added to .+ on Postwire$/;

/**
 * A new user who signs up, is invited into the project with the given role by `by`, and proves the address
 * with the invitation's verification link in their own session, which makes the membership active.
 */
export async function joinedUser(stack: TestStack, by: TestUser, project: TestProject, role: Role): Promise<TestUser> {
  const user = await signupUser(stack);
  await stack.http().post(`/projects/${project.id}/members`).set('Cookie', by.cookie).send({ email: user.email, role }).expect(201);
  const token = linkToken(await waitForMail(stack.smtp, user.email, INVITE_SUBJECT), '/verify-email');
  await stack.http().post('/auth/verify-email').set('Cookie', user.cookie).send({ token }).expect(200);
  return user;
}

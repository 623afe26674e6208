import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { sessionChanged } from '../../session';
import { ErrorNote } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { useAction } from '../../ui/use-load';
import { AuthFrame } from './frame';

export function Signup() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signup = useAction(async () => {
    await call(api.POST('/auth/signup', { body: { email, password } }));
    navigate('/');
    sessionChanged();
  });
  return (
    <AuthFrame title="Create your account">
      <Form onSubmit={() => void signup.run()}>
        <TextInput
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onValue={setEmail}
          error={signup.error}
        />
        <TextInput
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          value={password}
          onValue={setPassword}
          error={signup.error}
        />
        <ErrorNote error={signup.error} />
        <Submit pending={signup.pending} busy="Creating…">
          Create account
        </Submit>
      </Form>
      <p>
        Already have an account? <a href={href('/login')}>Log in</a>
      </p>
    </AuthFrame>
  );
}

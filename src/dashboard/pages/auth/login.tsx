import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href, navigate } from '../../router';
import { sessionChanged } from '../../session';
import { ErrorNote } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { useAction } from '../../ui/use-load';
import { AuthFrame } from './frame';

export function Login() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction(async () => {
    await call(api.POST('/auth/login', { body: { email, password } }));
    // From #/login (a bookmark, the page after logging out) to the overview: the login page is no project page.
    if (location.hash.startsWith('#/login')) navigate('/');
    sessionChanged();
  });
  return (
    <AuthFrame title="Log in">
      <Form onSubmit={() => void login.run()}>
        <TextInput
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onValue={setEmail}
          error={login.error}
        />
        <TextInput
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onValue={setPassword}
          error={login.error}
        />
        <ErrorNote error={login.error} />
        <Submit pending={login.pending} busy="Logging in…">
          Log in
        </Submit>
      </Form>
      <p>
        <a href={href('/forgot-password')}>Forgot your password?</a> · <a href={href('/signup')}>Create an account</a>
      </p>
      <p class="muted">
        Running this deployment? <a href={href('/operators')}>Operators</a>
      </p>
    </AuthFrame>
  );
}

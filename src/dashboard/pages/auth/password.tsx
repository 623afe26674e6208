import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { href } from '../../router';
import { ErrorNote } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { useAction } from '../../ui/use-load';
import { AuthFrame } from './frame';

export function RequestReset() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const request = useAction(async () => {
    await call(api.POST('/auth/request-password-reset', { body: { email } }));
    setSent(true);
  });
  return (
    <AuthFrame title="Reset your password">
      {sent ? (
        <p role="status">If an account uses {email}, a link to set a new password is on its way. It works once, within an hour.</p>
      ) : (
        <Form onSubmit={() => void request.run()}>
          <TextInput
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onValue={setEmail}
            error={request.error}
          />
          <ErrorNote error={request.error} />
          <Submit pending={request.pending} busy="Sending…">
            Send the link
          </Submit>
        </Form>
      )}
      <p>
        <a href={href('/login')}>Back to log in</a>
      </p>
    </AuthFrame>
  );
}

/** Opened from a password-reset or invitation email: sets the password with the link's token. */
export function SetPassword({ query }: { query: URLSearchParams }) {
  return (
    <AuthFrame title="Choose a password">
      <PasswordForm token={query.get('token') ?? ''} />
    </AuthFrame>
  );
}

/**
 * Sets the password with a mailed link's token (reset, invitation or verification): that proves the address and
 * ends every other session of the account.
 */
export function PasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const reset = useAction(async () => {
    await call(api.POST('/auth/reset-password', { body: { token, password } }));
    setDone(true);
  });
  if (done) {
    return (
      <p role="status">
        Your password is set. <a href={href('/login')}>Log in</a>
      </p>
    );
  }
  return (
    <Form onSubmit={() => void reset.run()}>
      <TextInput
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters."
        required
        value={password}
        onValue={setPassword}
        error={reset.error}
      />
      <ErrorNote error={reset.error} />
      <Submit pending={reset.pending} busy="Saving…">
        Set password
      </Submit>
    </Form>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../../api/client';
import { ErrorNote, Loading, Notice } from '../../ui/feedback';
import { Form, Submit, TextInput } from '../../ui/form';
import { PageHeader } from '../../ui/layout';
import { useAction } from '../../ui/use-load';
import { accessWith, forgetToken, keepToken, refusedToken, storedToken } from './access';
import { OperatorAudit } from './audit';
import { OperatorsFrame } from './frame';
import { OperatorProjects } from './projects';
import './operators.css';

type State = { is: 'checking' } | { is: 'off' } | { is: 'locked' } | { is: 'open'; token: string } | { is: 'failed'; error: ApiFailure };

function Off() {
  return (
    <Notice tone="warn" role="note">
      <p>
        <strong>Operators' access is off on this deployment.</strong>
      </p>
      <p>
        To turn it on, set <code>ADMIN_TOKEN</code> (at least 32 characters, e.g. from <code>openssl rand -hex 32</code>) in the API's
        environment and restart the API processes; then enter the token here. Until then every <code>/admin</code> request answers 404.
      </p>
    </Notice>
  );
}

function TokenForm({ opened }: { opened: (token: string) => void }) {
  const [token, setToken] = useState('');
  const open = useAction(async () => {
    const access = await accessWith(token.trim());
    if (access === 'refused') throw refusedToken();
    if (access === 'off') throw new ApiFailure(404, 'NOT_FOUND', "Operators' access is off on this deployment");
    keepToken(token.trim());
    opened(token.trim());
  });
  return (
    <div class="card operators-token">
      <Form onSubmit={() => void open.run()}>
        <TextInput
          label="Operators' token (ADMIN_TOKEN)"
          type="password"
          autoComplete="off"
          required
          value={token}
          onValue={(v) => (setToken(v), open.clear())}
          hint="Kept in this tab only, and sent as Authorization: Bearer to /admin."
        />
        <ErrorNote error={open.error} />
        <Submit pending={open.pending} busy="Checking…">
          Open
        </Submit>
      </Form>
    </div>
  );
}

/**
 * The deployment operators' page (docs/operators.md): every project with its reputation, suspend and reinstate,
 * the audit. It stands outside any project and any user account: the ADMIN_TOKEN is the key, kept in this tab's
 * sessionStorage. Without ADMIN_TOKEN the deployment answers 404 on /admin, and the page says how to turn it on.
 */
export function Operators() {
  const [state, setState] = useState<State>({ is: 'checking' });
  const [version, setVersion] = useState(0);
  const check = async () => {
    const token = storedToken();
    try {
      const access = await accessWith(token);
      if (access === 'open' && token) setState({ is: 'open', token });
      else if (access === 'off') setState({ is: 'off' });
      else {
        // A token kept from before that no longer opens (rotated): ask again.
        forgetToken();
        setState({ is: 'locked' });
      }
    } catch (err) {
      setState({ is: 'failed', error: err instanceof ApiFailure ? err : new ApiFailure(0, 'ERROR', String(err)) });
    }
  };
  useEffect(() => void check(), []);
  return (
    <OperatorsFrame>
      <PageHeader
        title="Operators"
        subtitle="Every project of this deployment with its sending reputation; suspend one, reinstate it, and read the audit."
      >
        {state.is === 'open' ? (
          <button type="button" onClick={() => (forgetToken(), setState({ is: 'locked' }))}>
            Forget the token
          </button>
        ) : null}
      </PageHeader>
      {state.is === 'checking' ? <Loading /> : null}
      {state.is === 'off' ? <Off /> : null}
      {state.is === 'locked' ? <TokenForm opened={(token) => setState({ is: 'open', token })} /> : null}
      {state.is === 'failed' ? (
        <>
          <ErrorNote error={state.error} />
          <button type="button" onClick={() => (setState({ is: 'checking' }), void check())}>
            Try again
          </button>
        </>
      ) : null}
      {state.is === 'open' ? (
        <>
          <OperatorProjects token={state.token} version={version} changed={() => setVersion((v) => v + 1)} />
          <OperatorAudit token={state.token} version={version} />
        </>
      ) : null}
    </OperatorsFrame>
  );
}

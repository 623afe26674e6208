import { ApiFailure, api, call } from '../../api/client';

/**
 * The operators' token (ADMIN_TOKEN), kept for this tab only: sessionStorage goes with the tab, and the token
 * never reaches localStorage or a cookie (docs/operators.md "In the dashboard").
 */
const KEY = 'postwire.adminToken';
export const storedToken = () => sessionStorage.getItem(KEY);
export const keepToken = (token: string) => sessionStorage.setItem(KEY, token);
export const forgetToken = () => sessionStorage.removeItem(KEY);

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** What the deployment answers a token: `/admin` is off (404 without ADMIN_TOKEN), the token is refused (401), or it opens. */
export type Access = 'off' | 'refused' | 'open';

export async function accessWith(token: string | null): Promise<Access> {
  try {
    await call(api.GET('/admin/projects', { params: { query: { limit: 1 } }, headers: token ? bearer(token) : {} }));
    return 'open';
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 404) return 'off';
    if (err instanceof ApiFailure && err.status === 401) return 'refused';
    throw err;
  }
}

/** The refusal of a wrong token, said plainly (the API's own message names the header, not the mistake). */
export const refusedToken = () =>
  new ApiFailure(
    401,
    'UNAUTHORIZED',
    "The token was refused: it is not this deployment's ADMIN_TOKEN",
    "Copy it again from the API's environment (ADMIN_TOKEN); it is compared whole, case included.",
  );

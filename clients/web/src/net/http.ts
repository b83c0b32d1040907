// JSON over HTTP for the tournament, pool and admin APIs (docs/tournaments.md): the session token
// goes as `Authorization: Bearer`, the admin token as `X-Admin-Token`. Errors are
// `{"error": message, "code": code}` with an HTTP 4xx/5xx status; they reject with ApiError.

export class ApiError extends Error {
  constructor(public status: number, public code: string, message: string) {
    super(message || code || `HTTP ${status}`);
  }
}

export type Auth = { token?: string | null; adminToken?: string | null };

// The game server reads one credential per request: X-Admin-Token, or (only when there is none)
// the Bearer token. Admin calls therefore send the admin token alone.
function credentialHeaders(auth: Auth): Record<string, string> {
  if (auth.adminToken) return { 'X-Admin-Token': auth.adminToken };
  if (auth.token) return { Authorization: `Bearer ${auth.token}` };
  return {};
}

export async function api<T = unknown>(method: string, path: string, body?: unknown, auth: Auth = {}): Promise<T> {
  const headers = credentialHeaders(auth);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (e) {
    throw new ApiError(0, 'network', (e as Error).message);
  }
  const text = await res.text();
  let data: unknown = text;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      /* keep the text */
    }
  }
  if (!res.ok) {
    const d = (data && typeof data === 'object' ? data : {}) as { error?: string; code?: string; message?: string };
    throw new ApiError(res.status, d.code ?? '', d.error ?? d.message ?? (typeof data === 'string' ? data.slice(0, 200) : ''));
  }
  // A command the matchmaker refused may come back as {ok: false, code, message}.
  const d = data as { ok?: boolean; code?: string; message?: string; error?: string };
  if (d && typeof d === 'object' && d.ok === false) throw new ApiError(res.status, d.code ?? '', d.error ?? d.message ?? '');
  return data as T;
}

export async function apiText(path: string, auth: Auth = {}): Promise<string> {
  const res = await fetch(path, { headers: credentialHeaders(auth), cache: 'no-store' });
  if (!res.ok) throw new ApiError(res.status, '', await res.text());
  return res.text();
}

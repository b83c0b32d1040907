// JSON over HTTP for the tournament, pool and admin APIs (docs/tournaments.md): the session token
// goes as `Authorization: Bearer`, the admin token as `X-Admin-Token`. Errors are
// `{"error": message, "code": code}` with an HTTP 4xx/5xx status; they reject with ApiError.

export class ApiError extends Error {
  constructor(public status: number, public code: string, message: string) {
    super(message || code || `HTTP ${status}`);
  }
}

export type Auth = { token?: string | null; adminToken?: string | null };

export async function api<T = unknown>(method: string, path: string, body?: unknown, auth: Auth = {}): Promise<T> {
  const headers: Record<string, string> = {};
  // The game server reads one credential per request: the Bearer token, or (only when there is
  // none) X-Admin-Token. Admin calls therefore send the admin token alone.
  if (auth.adminToken) headers['X-Admin-Token'] = auth.adminToken;
  else if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
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

export async function apiText(path: string): Promise<string> {
  const res = await fetch(path, { cache: 'no-store' });
  if (!res.ok) throw new ApiError(res.status, '', await res.text());
  return res.text();
}

// Admin dashboard (#/admin): opened by an account holding the admin role (its session token), or by
// the operator's admin token typed in (kept in sessionStorage only, sent as X-Admin-Token). Live
// games with abort/adjudicate, connections with ban, account roles, and the /metrics numbers at a
// glance. Polls while open.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { eventPlaceText, poolText, type GameOrigin } from '../admin/game_place';
import { byLabel, metric, parsePrometheus, type Sample } from '../admin/prometheus';
import type { App } from '../app';
import { apiErrorText, paren, t } from '../i18n';
import { ApiError, api, apiText, type Auth } from '../net/http';
import { clockText } from './format';
import { useObservable } from '../store';
import { zhParts } from './lang';

const POLL_MS = 3000;

// event_id, round, board and pool say where the game comes from (servers from 2026-12 on).
type AdminGame = { id: string; variant: string; red: string; black: string; plies: number; finished: boolean; red_ms?: number; black_ms?: number; running?: string } & GameOrigin;
type AdminConn = { id: string | number; remote: string; user: string; user_id: string; games: string[] };
// A user signed in on another game-server node of the deployment (from its presence in Redis).
type OtherNodeUser = { node: string; user: string; user_id: string };
type AdminConns = { node?: string; connections: AdminConn[]; elsewhere?: OtherNodeUser[] };

export function AdminPage({ app }: { app: App }) {
  useObservable(app);
  const token = app.adminToken;
  // A refused credential leads back to the token form, with the refusal and no data: a refused
  // typed token is forgotten at once (so nothing polls with it), a refused session is not tried
  // again in this tab.
  const refused = (by: 'token' | 'session') => {
    app.adminRefused = by;
    if (by === 'token') app.adminToken = '';
    app.notify();
  };
  if (token) return <Dashboard key="token" app={app} auth={{ adminToken: token }} onDenied={() => refused('token')} />;
  if (app.conn.role === 'admin' && app.conn.token && app.adminRefused !== 'session') {
    return <Dashboard key="session" app={app} auth={{ token: app.conn.token }} onDenied={() => refused('session')} />;
  }
  return <TokenForm app={app} />;
}

function TokenForm({ app }: { app: App }) {
  const [v, setV] = useState('');
  return (
    <section class="panel sign-in" data-testid="admin-login">
      <h2>{t('admin')}</h2>
      <p class="muted">{t('adminTokenHelp')}</p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (!v.trim()) return;
          if (app.adminRefused === 'token') app.adminRefused = '';
          app.adminToken = v.trim();
        }}
      >
        <input data-testid="admin-token" type="password" autocomplete="off" placeholder={t('adminToken')} value={v} onInput={(e) => setV(e.currentTarget.value)} />
        <button class="primary" data-testid="admin-save">{t('useToken')}</button>
      </form>
      {app.adminRefused && (
        <p class="error" role="alert" data-testid="admin-denied">{t(app.adminRefused === 'token' ? 'adminDenied' : 'adminSessionDenied')}</p>
      )}
    </section>
  );
}

function Dashboard({ app, auth, onDenied }: { app: App; auth: Auth; onDenied: () => void }) {
  const [games, setGames] = useState<AdminGame[]>([]);
  const [gameTotal, setGameTotal] = useState(0);
  const [conns, setConns] = useState<AdminConn[]>([]);
  // The node that answered (behind a load balancer each poll may reach another one) and the users
  // of the other nodes.
  const [node, setNode] = useState('');
  const [elsewhere, setElsewhere] = useState<OtherNodeUser[]>([]);
  const [samples, setSamples] = useState<Sample[]>([]);
  // Banned user ids (GET /api/admin/banned) and the names this page has seen them under: a banned
  // user is no longer connected, and the server keeps no name for a guest id.
  const [banned, setBanned] = useState<string[]>([]);
  const names = useRef(new Map<string, string>());
  const [reports, setReports] = useState<ChatReport[]>([]);
  // A failed poll (shown until a poll succeeds) and the last action's answer (done or refused:
  // kept until the next action or until the admin closes it, in a banner fixed in view).
  const [pollError, setPollError] = useState('');
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  // No panel is shown before the credential has been accepted once.
  const [loaded, setLoaded] = useState(false);

  const load = useCallback(async () => {
    try {
      const [g, c, b, r] = await Promise.all([
        api<{ games: AdminGame[]; total?: number }>('GET', '/api/admin/games?limit=500', undefined, auth),
        api<AdminConns>('GET', '/api/admin/connections', undefined, auth),
        api<{ banned?: string[] }>('GET', '/api/admin/banned', undefined, auth),
        api<{ reports?: ChatReport[] }>('GET', '/api/admin/chat-reports?limit=100', undefined, auth),
      ]);
      for (const u of [...(c.connections ?? []), ...(c.elsewhere ?? [])]) if (u.user_id && u.user) names.current.set(u.user_id, u.user);
      for (const rep of r.reports ?? []) if (rep.from?.user_id && rep.from.name) names.current.set(rep.from.user_id, rep.from.name);
      setReports(r.reports ?? []);
      setBanned([...(b.banned ?? [])].sort());
      setGames(g.games ?? []);
      setGameTotal(g.total ?? (g.games ?? []).length);
      setConns(c.connections ?? []);
      setNode(c.node ?? '');
      setElsewhere(c.elsewhere ?? []);
      setLoaded(true);
      setPollError('');
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return onDenied();
      setPollError(apiErrorText(e));
    }
    try {
      setSamples(parsePrometheus(await apiText('/api/admin/metrics', auth)));
    } catch {
      /* metrics are optional */
    }
  }, [auth.adminToken, auth.token]);

  useEffect(() => {
    void load();
    const timer = window.setInterval(() => void load(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [load]);

  // `done`: what to say once the action took effect (may read the server's answer).
  const post = async <R,>(path: string, body: unknown, done: string | ((r: R) => string)) => {
    setNote(null);
    try {
      const r = await api<R>('POST', path, body, auth);
      setNote({ ok: true, text: typeof done === 'string' ? done : done(r) });
      await load();
    } catch (e) {
      setNote({ ok: false, text: apiErrorText(e) });
    }
  };

  const users = new Map<string, string>();
  for (const c of conns) if (c.user_id) users.set(c.user_id, c.user);
  for (const u of elsewhere) users.set(u.user_id, u.user);
  const userButtons = (userId: string, name: string) => (
    <>
      <button data-testid="admin-disconnect" onClick={() => void post(`/api/admin/users/${encodeURIComponent(userId)}/disconnect`, {}, t('userDisconnected', { name: name || userId }))}>{t('disconnect')}</button>{' '}
      <BanButton onBan={() => void post(`/api/admin/users/${encodeURIComponent(userId)}/ban`, {}, t('userBanned', { name: name || userId }))} />
    </>
  );

  return (
    <div class={`admin${note ? ' has-note' : ''}`} data-testid="admin-dashboard">
      <section class="panel admin-head">
        <div class="row spread">
          <h2>{t('admin')}</h2>
          {auth.adminToken && <button data-testid="admin-forget" onClick={() => (app.adminToken = '')}>{t('forgetToken')}</button>}
        </div>
        {pollError && <p class="error" role="alert" data-testid="admin-poll-error">{pollError}</p>}
        {!loaded && !pollError && <p class="muted">{t('loading')}</p>}
      </section>
      {note && (
        <div class={`admin-note ${note.ok ? 'ok' : 'error'}`} role={note.ok ? 'status' : 'alert'}>
          <span data-testid={note.ok ? 'admin-msg' : 'admin-error'}>{note.text}</span>
          <button class="link" data-testid="admin-note-close" aria-label={t('close')} onClick={() => setNote(null)}>×</button>
        </div>
      )}
      {loaded && (
        <>
        <Metrics samples={samples} conns={conns} users={users.size} node={node} />
        <RolePanel
          onGrant={(name, role) => void post(`/api/admin/accounts/${encodeURIComponent(name)}/role`, { role }, t('roleGranted', { name, role: t(roleKey(role)) }))}
          onBot={(name, bot) => void post(`/api/admin/accounts/${encodeURIComponent(name)}/bot`, { bot }, t(bot ? 'botMarked' : 'botUnmarked', { name }))}
        />
        <section class="panel admin-games-panel" data-testid="admin-games">
          <h3>
            {t('liveGames')}{paren(games.filter((g) => !g.finished).length)}
            {games.some((g) => g.finished) && <span class="muted small"> · {t('recentlyFinished', { n: String(games.filter((g) => g.finished).length) })}</span>}
          </h3>
          {games.length === 0 && <p class="muted">{t('noGames')}</p>}
          {gameTotal > games.length && <p class="muted">{t('gamesShown', { shown: games.length, total: gameTotal })}</p>}
          <ul class="list">
            {[...games].sort((a, b) => Number(a.finished) - Number(b.finished)).map((g) => (
              <AdminGameRow key={g.id} g={g} auth={auth} onAbort={() => void post(`/api/admin/games/${encodeURIComponent(g.id)}/abort`, {}, t('gameAborted', { id: g.id }))} onAdjudicate={(outcome, reason) => void post(`/api/admin/games/${encodeURIComponent(g.id)}/adjudicate`, { outcome, reason }, t('gameAdjudicated', { id: g.id }))} onMoveLimit={(side) => void post(`/api/admin/games/${encodeURIComponent(g.id)}/move-limit`, { side }, t('moveLimitImposed', { id: g.id }))} />
            ))}
          </ul>
        </section>
        <section class="panel" data-testid="admin-connections">
          <h3>
            {t('connections')}{paren(conns.length)}{node && <span class="muted small" data-testid="admin-node"> · {t('nodeNamed', { node })}</span>}
          </h3>
          <div class="table-wrap">
            <table class="grid-table conns">
              <thead>
                <tr>
                  <th class="col-num">#</th>
                  <th>{t('node')}</th>
                  <th>{t('userName')}</th>
                  <th>{t('userId')}</th>
                  <th class="col-address">{t('address')}</th>
                  <th>{t('games')}</th>
                  <th class="actions" />
                </tr>
              </thead>
              <tbody>
                {conns.map((c) => (
                  <tr key={String(c.id)} data-user={c.user} data-node={node}>
                    <td class="col-num">{c.id}</td>
                    <td class="mono">{node}</td>
                    <td>{c.user || <span class="muted">—</span>}</td>
                    <td class="mono">{c.user_id}</td>
                    <td class="mono col-address">{c.remote}</td>
                    <td class="conn-games">{(c.games ?? []).join(', ')}</td>
                    <td class="actions">{c.user_id && userButtons(c.user_id, c.user)}</td>
                  </tr>
                ))}
                {elsewhere.map((u) => (
                  <tr key={`${u.node}/${u.user_id}`} data-user={u.user} data-node={u.node} class="elsewhere" title={t('onOtherNode')}>
                    <td class="muted col-num">—</td>
                    <td class="mono">{u.node}</td>
                    <td>{u.user}</td>
                    <td class="mono">{u.user_id}</td>
                    <td class="muted col-address">—</td>
                    <td class="muted">—</td>
                    <td class="actions">{userButtons(u.user_id, u.user)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <BanById onBan={(id) => void post(`/api/admin/users/${encodeURIComponent(id)}/ban`, {}, t('userBanned', { name: users.get(id) ?? id }))} />
        </section>
        <section class="panel" data-testid="admin-chat-reports">
          <h3>{t('chatReports')}{paren(reports.length)}</h3>
          {reports.length === 0 ? (
            <p class="muted">{t('noChatReports')}</p>
          ) : (
            <ul class="list">
              {reports.map((rep) => (
                <li key={`${rep.game_id}/${rep.seq}/${rep.reporter?.user_id}`} data-testid="chat-report" data-writer={rep.from?.user_id}>
                  <span class="muted small">{new Date(rep.reported_at_ms).toLocaleString()}</span>{' '}
                  <a href={`#/game/${encodeURIComponent(rep.game_id)}`}>{rep.game_id}</a>{' '}
                  <span class="tag">{rep.room === 'players' ? t('chat') : t('chatSpectators')}</span>{' '}
                  <b>{rep.from?.name}</b> <span data-testid="chat-report-text">{rep.text}</span>{' '}
                  <span class="muted small">{t('reportedBy', { name: rep.reporter?.name ?? '' })}</span>{' '}
                  {banned.includes(rep.from?.user_id) ? (
                    <span class="tag">{t('banned')}</span>
                  ) : (
                    <BanButton onBan={() => void post(`/api/admin/users/${encodeURIComponent(rep.from.user_id)}/ban`, {}, t('userBanned', { name: rep.from.name || rep.from.user_id }))} />
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section class="panel" data-testid="admin-banned">
          <h3>
            {t('bannedUsers')}{paren(banned.length)}
          </h3>
          {banned.length === 0 ? (
            <p class="muted">{t('noBannedUsers')}</p>
          ) : (
            <ul class="list">
              {banned.map((id) => {
                const name = names.current.get(id);
                return (
                  <li key={id} data-user-id={id}>
                    <span class="mono">{id}</span>
                    {name && <span class="who">{name}</span>}
                    <button
                      data-testid="unban"
                      onClick={() =>
                        void post<{ was_banned?: boolean }>(`/api/admin/users/${encodeURIComponent(id)}/unban`, {}, (r) =>
                          t(r.was_banned === false ? 'userWasNotBanned' : 'userUnbanned', { name: name ?? id }),
                        )
                      }
                    >
                      {t('unban')}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        </>
      )}
    </div>
  );
}

function Metrics({ samples, conns, users, node }: { samples: Sample[]; conns: AdminConn[]; users: number; node: string }) {
  const m = (n: string) => metric(samples, n);
  const errors = byLabel(samples, 'xq_errors_total', 'code');
  // Mean of a latency histogram in ms, or undefined before its first sample.
  const mean = (h: string) => {
    const n = m(`${h}_count`);
    const s = m(`${h}_sum`);
    return n && s !== undefined ? `${((s / n) * 1000).toFixed(1)} ms` : undefined;
  };
  const cell = (label: string, v: number | string | undefined, id: string) => (
    <div class="stat" data-metric={id}>
      <span class="value">{v === undefined ? '—' : v}</span>
      <span class="label">{label}</span>
    </div>
  );
  return (
    <section class="panel" data-testid="metrics">
      <h3>{t('metrics')}</h3>
      <div class="stats">
        {cell(t('m.connections'), m('xq_connections'), 'connections')}
        {cell(t('m.users'), users, 'users')}
        {cell(t('m.liveGames'), m('xq_live_games'), 'live_games')}
        {cell(t('m.moves'), m('xq_moves_total'), 'moves')}
        {cell(t('m.started'), m('xq_games_started_total'), 'games_started')}
        {cell(t('m.finished'), m('xq_games_finished_total'), 'games_finished')}
        {cell(t('m.connectionsTotal'), m('xq_connections_total'), 'connections_total')}
        {cell(t('m.latency'), mean('xq_move_latency_seconds'), 'latency')}
        {cell(t('m.redisLatency'), mean('xq_redis_latency_seconds'), 'redis_latency')}
        {cell(t('m.framesIn'), m('xq_frames_in_total'), 'frames_in')}
        {cell(t('m.framesOut'), m('xq_frames_out_total'), 'frames_out')}
      </div>
      <h4>{t('m.errors')}</h4>
      {Object.keys(errors).length === 0 ? (
        <p class="muted" data-testid="no-errors">{t('m.noErrors')}</p>
      ) : (
        <ul class="list errors" data-testid="errors-by-code">
          {Object.entries(errors).map(([code, n]) => (
            <li key={code} data-code={code}>
              <span class="mono">{code}</span>
              <span class="tag">{n}</span>
            </li>
          ))}
        </ul>
      )}
      <p class="muted small">{t('m.source', { n: conns.length })}{node && ` ${t('m.perNode', { node })}`}</p>
    </section>
  );
}

type StoredChatLine = { room: string; name: string; text: string; at_ms: number; seq: number };

// A chat line a reader reported (GET /api/admin/chat-reports).
type ChatReport = {
  game_id: string;
  seq: number;
  room: string;
  from: { user_id: string; name: string };
  text: string;
  at_ms: number;
  reporter: { user_id: string; name: string };
  reported_at_ms: number;
};

// A game's chat as stored, both rooms (GET /api/admin/games/{id}/chat), shown on demand.
function AdminChat({ id, auth }: { id: string; auth: Auth }) {
  const [lines, setLines] = useState<StoredChatLine[] | null>(null);
  const [error, setError] = useState('');
  const load = () =>
    api<{ lines: StoredChatLine[] }>('GET', `/api/admin/games/${encodeURIComponent(id)}/chat`, undefined, auth).then(
      (r) => { setLines(r.lines); setError(''); },
      (e) => setError(apiErrorText(e)),
    );
  if (lines === null)
    return (
      <>
        <button data-testid="admin-chat" onClick={() => void load()}>{t('chat')}</button>
        {error && <span class="error">{error}</span>}
      </>
    );
  return (
    <div class="admin-chat" data-testid="admin-chat-lines">
      {lines.length === 0 && <span class="muted">{t('chatEmpty')}</span>}
      {lines.map((l) => (
        <div key={l.seq} data-room={l.room}>
          <span class="tag">{l.room === 'players' ? t('chat') : t('chatSpectators')}</span> <b>{l.name}</b> {l.text}
        </div>
      ))}
      <button class="link small" onClick={() => setLines(null)}>{t('hide')}</button>
    </div>
  );
}

function AdminGameRow({
  g,
  auth,
  onAbort,
  onAdjudicate,
  onMoveLimit,
}: {
  g: AdminGame;
  auth: Auth;
  onAbort: () => void;
  onAdjudicate: (outcome: string, reason: string) => void;
  onMoveLimit: (side: string) => void;
}) {
  const [confirm, setConfirm] = useState(false);
  const [confirmAdjudicate, setConfirmAdjudicate] = useState(false);
  const [confirmLimit, setConfirmLimit] = useState(false);
  const [limitSide, setLimitSide] = useState('both');
  const [outcome, setOutcome] = useState('red-wins');
  const [reason, setReason] = useState('adjudication');
  return (
    <li data-game={g.id} data-finished={g.finished ? '1' : '0'} class={g.finished ? 'finished' : ''}>
      <span class="who">
        {g.red} {t('vs')} {g.black}
      </span>
      <span class="tag">{zhParts(g.variant === 'jieqi' ? t('jieqi') : t('xiangqi'))}</span>
      {/* Which event, round and board (the admin is asked about "board 3"), or which pool. */}
      {g.event_id && (
        <a class="tag" data-testid="admin-game-event" href={`#/tournaments/${encodeURIComponent(g.event_id)}`}>{eventPlaceText(g)}</a>
      )}
      {g.pool && <span class="tag" data-testid="admin-game-pool">{poolText(g)}</span>}
      <span class="muted">{g.plies === 1 ? t('onePly') : t('plies', { n: g.plies })}</span>
      {g.red_ms !== undefined && g.black_ms !== undefined && (
        <span class="mono" data-testid="admin-clocks">
          <span class={g.running === 'red' ? 'running' : ''}>{clockText(g.red_ms)}</span> – <span class={g.running === 'black' ? 'running' : ''}>{clockText(g.black_ms)}</span>
        </span>
      )}
      {g.finished && <span class="tag">{t('gameOver')}</span>}
      <a class="button" href={`#/game/${encodeURIComponent(g.id)}`}>{t('watch')}</a>
      <AdminChat id={g.id} auth={auth} />
      {!g.finished && (
        <div class="row admin-actions">
          {confirm ? (
            <>
              <button class="danger" data-testid="admin-abort-confirm" onClick={() => { setConfirm(false); onAbort(); }}>{t('confirmAbort')}</button>
              <button onClick={() => setConfirm(false)}>{t('cancel')}</button>
            </>
          ) : (
            <button data-testid="admin-abort" onClick={() => setConfirm(true)}>{t('abort')}</button>
          )}
          <select data-testid="admin-outcome" value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)}>
            <option value="red-wins">{t('redWins')}</option>
            <option value="black-wins">{t('blackWins')}</option>
            <option value="draw">{t('draw')}</option>
          </select>
          <input data-testid="admin-reason" value={reason} placeholder={t('reason')} onInput={(e) => setReason(e.currentTarget.value)} />
          {/* Asked first, as Abort is: a decided game cannot be taken back (on a phone these buttons sit close). */}
          {confirmAdjudicate ? (
            <>
              <button class="danger" data-testid="admin-adjudicate-confirm" onClick={() => { setConfirmAdjudicate(false); onAdjudicate(outcome, reason.trim()); }}>
                {t('confirmAdminAdjudicate', { outcome: outcome === 'red-wins' ? t('redWins') : outcome === 'black-wins' ? t('blackWins') : t('draw') })}
              </button>
              <button onClick={() => setConfirmAdjudicate(false)}>{t('cancel')}</button>
            </>
          ) : (
            <button data-testid="admin-adjudicate" onClick={() => setConfirmAdjudicate(true)}>{t('adjudicate')}</button>
          )}
          {/* The arbiter's 限着 (games whose rules have a move limit on request; the server says if not),
              on both sides or on one (whose checks then do not count). */}
          <select data-testid="admin-move-limit-side" value={limitSide} onChange={(e) => setLimitSide(e.currentTarget.value)}>
            <option value="both">{t('moveLimitOnBoth')}</option>
            <option value="red">{t('red')}</option>
            <option value="black">{t('black')}</option>
          </select>
          {confirmLimit ? (
            <>
              <button class="danger" data-testid="admin-move-limit-confirm" onClick={() => { setConfirmLimit(false); onMoveLimit(limitSide); }}>{t('confirmMoveLimit')}</button>
              <button onClick={() => setConfirmLimit(false)}>{t('cancel')}</button>
            </>
          ) : (
            <button data-testid="admin-move-limit" onClick={() => setConfirmLimit(true)}>{t('imposeMoveLimit')}</button>
          )}
        </div>
      )}
    </li>
  );
}

function BanButton({ onBan }: { onBan: () => void }) {
  const [confirm, setConfirm] = useState(false);
  return confirm ? (
    <span class="row">
      <button class="danger" data-testid="ban-confirm" onClick={() => { setConfirm(false); onBan(); }}>{t('confirmBan')}</button>
      <button onClick={() => setConfirm(false)}>{t('cancel')}</button>
    </span>
  ) : (
    <button data-testid="ban-user" onClick={() => setConfirm(true)}>{t('ban')}</button>
  );
}

function BanById({ onBan }: { onBan: (id: string) => void }) {
  const [id, setId] = useState('');
  return (
    <form
      class="row"
      onSubmit={(e) => {
        e.preventDefault();
        if (id.trim()) onBan(id.trim());
        setId('');
      }}
    >
      <input data-testid="ban-id" aria-label={t('banById')} placeholder={t('banById')} value={id} onInput={(e) => setId(e.currentTarget.value)} />
      <button data-testid="ban-id-submit" disabled={!id.trim()}>{t('ban')}</button>
    </form>
  );
}

const roleKey = (r: string) => (r === 'admin' ? 'role.admin' : r === 'organiser' ? 'role.organiser' : 'role.player');

// Grants a role to a registered account by name: organisers create events and clubs, admins see this
// page. Also marks an account as a computer player (the operator's xqbot), or not.
function RolePanel({ onGrant, onBot }: { onGrant: (name: string, role: string) => void; onBot: (name: string, bot: boolean) => void }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState('organiser');
  return (
    <section class="panel" data-testid="admin-roles">
      <h3>{t('roles')}</h3>
      <p class="muted">{t('rolesHelp')}</p>
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) onGrant(name.trim(), role);
        }}
      >
        <input data-testid="role-account" aria-label={t('userName')} placeholder={t('userName')} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <select data-testid="role-select" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
          {['player', 'organiser', 'admin'].map((r) => (
            <option key={r} value={r}>{t(roleKey(r))}</option>
          ))}
        </select>
        <button class="primary" data-testid="role-grant">{t('grantRole')}</button>
        <button type="button" data-testid="bot-mark" onClick={() => name.trim() && onBot(name.trim(), true)}>{t('botMark')}</button>
        <button type="button" data-testid="bot-unmark" onClick={() => name.trim() && onBot(name.trim(), false)}>{t('botUnmark')}</button>
      </form>
    </section>
  );
}

// Clubs (docs/tournaments.md, /api/clubs). #/clubs: the clubs one organises or belongs to (GET
// /api/clubs), the clubs this device remembers, open one by its id, and the organiser's "create a
// club" form. #/club/ID: the club's organisers and members by name, and for its organisers the
// forms that add either by account name, a Remove button by each (the last organiser stays),
// renaming and deleting the club; "New event for this club" (the event form with the club and
// members-only access filled in) for those who may also create events.
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { apiErrorText, t } from '../i18n';
import { api, ApiError } from '../net/http';
import {
  CLUB_ID_MAX,
  CLUB_ID_PATTERN,
  clubNameProblem,
  clubsOf,
  displayName,
  forgetClub,
  loadRememberedClubs,
  mayCreateClubEvent,
  mayRunClub,
  rememberClub,
  validClubId,
  type ClubDetail,
  type RememberedClub,
} from '../tournament/clubs';
import { errorProps } from './form_validity';

const clubHref = (id: string) => `#/club/${encodeURIComponent(id)}`;

export function ClubsPage({ app }: { app: App }) {
  const [clubs, setClubs] = useState<RememberedClub[]>(() => loadRememberedClubs());
  // Creating clubs is the organiser role's (an admin grants it); asked again on opening, so a
  // grant shows without a reload. The server checks it too.
  useEffect(() => void app.conn.refreshSession().then(() => app.notify()), [app]);
  const canOrganise = app.conn.role === 'organiser' || app.conn.role === 'admin';

  return (
    <div class="clubs" data-testid="clubs-page">
      {app.user && !app.user.guest && <YourClubs app={app} />}
      <section class="panel">
        <div class="row spread">
          <h2>{t('clubsHere')}</h2>
          <a class="button" href="#/tournaments">{t('allEvents')}</a>
        </div>
        <p class="muted small">{t('clubsHereHelp')}</p>
        {clubs.length === 0 && <p class="muted" data-testid="no-clubs-here">{t('noClubsHere')}</p>}
        <ul class="list" data-testid="remembered-clubs">
          {clubs.map((c) => (
            <li key={c.id} data-club={c.id}>
              <a class="who" href={clubHref(c.id)}>{c.name || c.id}</a>
              <span class="muted">{t('clubIdShown', { id: c.id })}</span>
              <button class="link small" data-testid="forget-club" aria-label={t('forgetClubNamed', { name: c.name || c.id })}
                      onClick={() => setClubs(forgetClub(c.id))}>{t('forgetClub')}</button>
            </li>
          ))}
        </ul>
      </section>
      <OpenClubForm app={app} />
      {canOrganise ? (
        <CreateClubForm app={app} />
      ) : (
        <section class="panel">
          <h2>{t('createClub')}</h2>
          <p class="muted" data-testid="club-role-needed">{t('clubRoleNeeded')}</p>
        </section>
      )}
    </div>
  );
}

// The clubs the signed-in account organises or belongs to, from the server's list of clubs.
function YourClubs({ app }: { app: App }) {
  const [mine, setMine] = useState<ClubDetail[] | null>(null);
  const uid = app.user?.userId ?? '';
  useEffect(() => {
    let live = true;
    api<{ clubs: ClubDetail[] }>('GET', '/api/clubs').then(
      (r) => live && setMine(clubsOf(r.clubs ?? [], uid)),
      () => live && setMine([]),
    );
    return () => {
      live = false;
    };
  }, [uid]);
  return (
    <section class="panel">
      <h2>{t('yourClubs')}</h2>
      {mine && mine.length === 0 && <p class="muted" data-testid="no-your-clubs">{t('noYourClubs')}</p>}
      <ul class="list" data-testid="your-clubs">
        {(mine ?? []).map((c) => (
          <li key={c.id} data-club={c.id}>
            <a class="who" href={clubHref(c.id)}>{c.name || c.id}</a>
            <span class="tag">{t(c.organisers.includes(uid) ? 'clubRoleOrganiser' : 'clubRoleMember')}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function OpenClubForm({ app }: { app: App }) {
  const [id, setId] = useState('');
  return (
    <section class="panel">
      <h2 id="open-club-title">{t('openClub')}</h2>
      <form class="row" aria-labelledby="open-club-title" onSubmit={(e) => {
        e.preventDefault();
        if (validClubId(id.trim())) app.navigate(clubHref(id.trim()));
      }}>
        <label class="sr-only" for="open-club-id">{t('clubId')}</label>
        <input id="open-club-id" data-testid="open-club-id" required pattern={CLUB_ID_PATTERN} maxLength={CLUB_ID_MAX}
               placeholder={t('clubId')} aria-describedby="open-club-help" autocomplete="off" value={id}
               onInput={(e) => setId(e.currentTarget.value)} />
        <button data-testid="open-club">{t('open')}</button>
      </form>
      <p class="muted small" id="open-club-help">{t('openClubHelp')} {t('clubIdRule')}</p>
    </section>
  );
}

type CreateField = 'club_id' | 'name' | null;

function CreateClubForm({ app }: { app: App }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  // Kept as a thunk and worded at each render, so a language switch re-words it.
  const [error, setError] = useState<{ text: () => string; field: CreateField } | null>(null);
  const errId = 'create-club-error';

  const submit = async () => {
    const clubId = id.trim();
    const clubName = name.trim();
    if (clubNameProblem(clubName) === 'tooLong') {  // bytes, not characters: 100 of them are 33 Chinese ones
      setError({ text: () => t('clubNameTooLong'), field: 'name' });
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await api('POST', '/api/clubs', { club_id: clubId, name: clubName }, { token: app.conn.token });
      rememberClub({ id: clubId, name: clubName });
      app.navigate(clubHref(clubId));
    } catch (e) {
      const err = e as ApiError;
      if (err.status === 403) setError({ text: () => t('clubRoleNeeded'), field: null });
      else if (err.code === 'exists') setError({ text: () => t(/deleted/.test(err.message) ? 'clubIdWasDeleted' : 'clubIdTaken'), field: 'club_id' });
      else setError({ text: () => apiErrorText(e), field: /club_id/.test(err.message) ? 'club_id' : /name/.test(err.message) ? 'name' : null });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel">
      <h2>{t('createClub')}</h2>
      <form class="seek-form club-form" data-testid="club-form" onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}>
        <label>
          {t('clubId')}
          <input data-testid="club-id" required pattern={CLUB_ID_PATTERN} maxLength={CLUB_ID_MAX} autocomplete="off" value={id}
                 {...errorProps(errId, error?.field === 'club_id', 'club-id-rule')} onInput={(e) => setId(e.currentTarget.value)} />
        </label>
        <label>
          {t('clubName')}
          <input data-testid="club-name" required value={name}
                 {...errorProps(errId, error?.field === 'name')} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <p class="muted small wide" id="club-id-rule">{t('clubIdRule')}</p>
        <div class="row">
          <button class="primary" data-testid="create-club" disabled={busy}>{t('createClub')}</button>
        </div>
        {error && <p class="error wide" role="alert" id={errId} data-testid="club-form-error">{error.text()}</p>}
      </form>
    </section>
  );
}

// The club's page. Names are read once per id (GET /api/users/{id}); a guest's id, or one no
// account has, is shown as the id.
export function ClubPage({ app, id }: { app: App; id: string }) {
  const [club, setClub] = useState<ClubDetail | null>(null);
  const [missing, setMissing] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [removal, setRemoval] = useState<{ kind: 'member' | 'organiser'; ok: boolean; text: () => string } | null>(null);

  const load = async () => {
    try {
      const c = await api<ClubDetail>('GET', `/api/clubs/${encodeURIComponent(id)}`);
      const detail = { id: c.id || id, name: c.name ?? '', organisers: c.organisers ?? [], members: c.members ?? [] };
      setClub(detail);
      setLoadError(null);
      rememberClub({ id: detail.id, name: detail.name });
      return detail;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && e.code === 'unknown_club') {
        setMissing(true);
        forgetClub(id);
      } else setLoadError(e);
      return null;
    }
  };

  useEffect(() => {
    void load();
  }, [id]);
  // The account's role decides "New event for this club": asked again on opening, as on #/clubs.
  useEffect(() => void app.conn.refreshSession().then(() => app.notify()), [app]);

  // Names for ids not yet known.
  useEffect(() => {
    if (!club) return;
    const todo = [...new Set([...club.organisers, ...club.members])].filter((u) => !names.has(u));
    if (!todo.length) return;
    let live = true;
    void Promise.all(
      todo.map((u) =>
        api<{ user_id: string; name: string }>('GET', `/api/users/${encodeURIComponent(u)}`).then(
          (r) => [u, r.name || u] as const,
          () => [u, u] as const,
        ),
      ),
    ).then((got) => {
      if (!live) return;
      setNames((prev) => new Map([...prev, ...got]));
    });
    return () => {
      live = false;
    };
  }, [club]);

  const title = missing ? t('club') : club ? club.name || club.id : '';
  useEffect(() => app.namePage(`club/${id}`, title), [app, id, title]);

  if (missing) {
    return (
      <section class="panel club-page" data-testid="club-not-found">
        <h2>{t('club')}</h2>
        <p class="error">{t('noSuchClub', { id })}</p>
        <a class="button" href="#/clubs">{t('allClubs')}</a>
      </section>
    );
  }
  if (!club) {
    return <p class={loadError ? 'error' : 'muted'} data-testid="club-loading">{loadError ? apiErrorText(loadError) : t('loading')}</p>;
  }
  const uid = app.user?.userId ?? '';
  const organises = mayRunClub(club, uid, app.conn.role);
  const remove = async (kind: 'member' | 'organiser', u: string) => {
    const shown = displayName(u, names);
    setRemoval(null);
    try {
      await api('POST', `/api/clubs/${encodeURIComponent(club.id)}/${kind === 'member' ? 'members' : 'organisers'}/remove`, { user_id: u }, { token: app.conn.token });
      setRemoval({ kind, ok: true, text: () => t('clubRemoved', { name: shown }) });
      void load();
    } catch (e) {
      const err = e as ApiError;
      const text = err.code === 'bad_state' ? () => t('clubLastOrganiser') : err.status === 403 ? () => t('clubForbidden') : () => apiErrorText(e);
      setRemoval({ kind, ok: false, text });
      void load();
    }
  };
  const person = (kind: 'member' | 'organiser') => (u: string) => (
    <li key={u} data-user={u}>
      <a class="who" href={`#/player/${encodeURIComponent(u)}`} data-testid="club-person">{displayName(u, names)}</a>
      {u === uid && <span class="muted">({t('you')})</span>}
      {/* The last organiser stays: someone must be able to run the club. */}
      {organises && !(kind === 'organiser' && club.organisers.length === 1) && (
        <button class="link small" data-testid={`remove-club-${kind}`}
                aria-label={t(kind === 'member' ? 'removeMemberNamed' : 'removeOrganiserNamed', { name: displayName(u, names) })}
                onClick={() => void remove(kind, u)}>{t('removeFromClub')}</button>
      )}
    </li>
  );
  const removalNote = (kind: 'member' | 'organiser') =>
    removal && removal.kind === kind && (
      <p class={removal.ok ? 'ok' : 'error'} role={removal.ok ? 'status' : 'alert'} data-testid={`remove-club-${kind}-msg`}>{removal.text()}</p>
    );

  return (
    <div class="club-page" data-testid="club-page" data-club={club.id}>
      <section class="panel">
        <div class="row spread">
          <h2 data-testid="club-name-shown">{club.name || club.id}</h2>
          <a class="button" href="#/clubs">{t('allClubs')}</a>
        </div>
        <p class="muted" data-testid="club-id-shown">{t('clubIdShown', { id: club.id })}</p>
        {mayCreateClubEvent(club, uid, app.conn.role) && (
          <div class="row">
            <a class="button primary" data-testid="new-club-event" href={`#/tournaments?club=${encodeURIComponent(club.id)}`}>{t('newClubEvent')}</a>
          </div>
        )}
      </section>
      <section class="panel">
        <h3 id="club-organisers-title">{t('clubOrganisers')}</h3>
        {club.organisers.length === 0 && <p class="muted">{t('noClubOrganisers')}</p>}
        <ul class="list" data-testid="club-organisers" aria-labelledby="club-organisers-title">{club.organisers.map(person('organiser'))}</ul>
        {removalNote('organiser')}
        {organises && (
          <AddPersonForm app={app} club={club} kind="organiser"
                         onAdded={(u, n) => { setNames((p) => new Map([...p, [u, n]])); void load(); }} />
        )}
      </section>
      <section class="panel">
        <h3 id="club-members-title">{t('clubMembers')}</h3>
        {club.members.length === 0 && <p class="muted" data-testid="no-club-members">{t('noClubMembers')}</p>}
        <ul class="list" data-testid="club-members" aria-labelledby="club-members-title">{club.members.map(person('member'))}</ul>
        {removalNote('member')}
        {organises ? (
          <AddPersonForm app={app} club={club} kind="member"
                         onAdded={(u, n) => { setNames((p) => new Map([...p, [u, n]])); void load(); }} />
        ) : (
          <p class="muted small">{t('clubOrganisersOnly')}</p>
        )}
      </section>
      {organises && (
        <section class="panel" data-testid="club-settings">
          <h3>{t('clubSettings')}</h3>
          <RenameClubForm app={app} club={club} onRenamed={() => void load()} />
          <DeleteClub app={app} club={club} />
        </section>
      )}
    </div>
  );
}

// The club's new name, by the rule of its creation (clubNameProblem here, the rest at the server);
// a refusal is said at the field in the page's language.
function RenameClubForm({ app, club, onRenamed }: { app: App; club: ClubDetail; onRenamed: () => void }) {
  const [name, setName] = useState(club.name);
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: () => string } | null>(null);
  const errId = 'rename-club-error';

  const submit = async () => {
    const typed = name.trim();
    const problem = clubNameProblem(typed);
    if (problem) {
      setMsg({ ok: false, text: () => t(problem === 'empty' ? 'fieldRequired' : 'clubNameTooLong') });
      return;
    }
    setMsg(null);
    setBusy(true);
    try {
      await api('POST', `/api/clubs/${encodeURIComponent(club.id)}/rename`, { name: typed }, { token: app.conn.token });
      setName(typed);
      rememberClub({ id: club.id, name: typed });
      setMsg({ ok: true, text: () => t('clubRenamed', { name: typed }) });
      onRenamed();
    } catch (e) {
      const err = e as ApiError;
      const text = err.status === 400 ? () => t('clubNameRule') : err.status === 403 ? () => t('clubForbidden') : () => apiErrorText(e);
      setMsg({ ok: false, text });
    } finally {
      setBusy(false);
    }
  };

  const invalid = !!msg && !msg.ok;
  return (
    <form class="register-account" data-testid="rename-club" onSubmit={(e) => {
      e.preventDefault();
      void submit();
    }}>
      <label class="muted small" for="rename-club-name">{t('renameClubLabel')}</label>
      <div class="row">
        <input id="rename-club-name" data-testid="rename-club-name" value={name} autocomplete="off" required
               {...errorProps(errId, invalid)} onInput={(e) => setName(e.currentTarget.value)} />
        <button data-testid="rename-club-save" disabled={busy || name.trim() === club.name}>{t('renameClub')}</button>
      </div>
      {msg && (
        <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'} id={msg.ok ? undefined : errId} data-testid="rename-club-msg">
          {msg.text()}
        </p>
      )}
    </form>
  );
}

// Deletes the club after asking; the server refuses while one of its events is not over. Deleted,
// the club is forgotten on this device and the page goes to the clubs.
function DeleteClub({ app, club }: { app: App; club: ClubDetail }) {
  const [busy, setBusy] = useState(false);
  // Kept as a thunk and worded at each render, so a language switch re-words it.
  const [error, setError] = useState<{ text: () => string } | null>(null);
  const errId = 'delete-club-error';

  const remove = async () => {
    if (!window.confirm(t('confirmDeleteClub', { name: club.name || club.id }))) return;
    setError(null);
    setBusy(true);
    try {
      await api('POST', `/api/clubs/${encodeURIComponent(club.id)}/delete`, {}, { token: app.conn.token });
      forgetClub(club.id);
      app.navigate('#/clubs');
    } catch (e) {
      const err = e as ApiError;
      setError({ text: err.code === 'bad_state' ? () => t('clubHasLiveEvents') : err.status === 403 ? () => t('clubForbidden') : () => apiErrorText(e) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="delete-club">
      <p class="muted small" id="delete-club-help">{t('deleteClubHelp')}</p>
      <button class="danger" data-testid="delete-club" disabled={busy} onClick={() => void remove()}
              aria-describedby={error ? `delete-club-help ${errId}` : 'delete-club-help'}>{t('deleteClub')}</button>
      {error && <p class="error" role="alert" id={errId} data-testid="delete-club-msg">{error.text()}</p>}
    </div>
  );
}

// Adds a member or an organiser by account name: the name's account (GET /api/accounts/{name}),
// then its id to the club. A name no account has (a guest's, or a typo) is refused in words,
// tied to the field.
function AddPersonForm({ app, club, kind, onAdded }: {
  app: App;
  club: ClubDetail;
  kind: 'member' | 'organiser';
  onAdded: (userId: string, name: string) => void;
}) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: () => string } | null>(null);
  const fieldId = `club-add-${kind}`;
  const errId = `${fieldId}-error`;
  const member = kind === 'member';

  const submit = async () => {
    const typed = name.trim();
    if (!typed) return;
    setMsg(null);
    setBusy(true);
    try {
      let account: { user_id: string; name: string };
      try {
        account = await api('GET', `/api/accounts/${encodeURIComponent(typed)}`);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) {
          setMsg({ ok: false, text: () => t(member ? 'noAccountMember' : 'noAccountOrganiser', { name: typed }) });
          return;
        }
        throw e;
      }
      const shown = account.name || typed;
      if ((member ? club.members : club.organisers).includes(account.user_id)) {
        setMsg({ ok: false, text: () => t(member ? 'alreadyClubMember' : 'alreadyClubOrganiser', { name: shown }) });
        return;
      }
      await api('POST', `/api/clubs/${encodeURIComponent(club.id)}/${member ? 'members' : 'organisers'}`, { user_id: account.user_id }, { token: app.conn.token });
      setName('');
      setMsg({ ok: true, text: () => t(member ? 'clubMemberAdded' : 'clubOrganiserAdded', { name: shown }) });
      onAdded(account.user_id, shown);
    } catch (e) {
      setMsg({ ok: false, text: () => (e instanceof ApiError && e.status === 403 ? t('clubForbidden') : apiErrorText(e)) });
    } finally {
      setBusy(false);
    }
  };

  const invalid = !!msg && !msg.ok;
  return (
    <form class="register-account" data-testid={`add-club-${kind}`} onSubmit={(e) => {
      e.preventDefault();
      void submit();
    }}>
      <label class="muted small" for={fieldId}>{t(member ? 'addMemberLabel' : 'addOrganiserLabel')}</label>
      <div class="row">
        <input id={fieldId} data-testid={`add-club-${kind}-name`} placeholder={t('accountName')} value={name} autocomplete="off"
               required {...errorProps(errId, invalid)} onInput={(e) => setName(e.currentTarget.value)} />
        <button data-testid={`add-club-${kind}-save`} disabled={busy || !name.trim()}>{t(member ? 'addClubMember' : 'addClubOrganiser')}</button>
      </div>
      {msg && (
        <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'} id={msg.ok ? undefined : errId} data-testid={`add-club-${kind}-msg`}>
          {msg.text()}
        </p>
      )}
    </form>
  );
}

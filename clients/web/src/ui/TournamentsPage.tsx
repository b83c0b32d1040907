// Tournament list (#/tournaments) and the organiser's "create an event" form with every setting of
// docs/tournaments.md. The event itself is EventPage (#/tournaments/ID).
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { apiErrorText, t, type Key } from '../i18n';
import { api } from '../net/http';
import { BYE_OPP_POLICIES, TIEBREAK_PRESETS } from '../tournament/logic';
import { BadPairsError, NEW_EVENT_FORM, clubEventForm, POLICIES, eventSettingsBody, formFromConfig, formPreset } from '../tournament/event_form';
import type { EventDetail, EventSummary } from '../tournament/types';
import { RULESETS } from './format';
import { RuleOptionsFields } from './RuleOptionsFields';
import { errorProps } from './form_validity';
import { zhParts } from './lang';

const POLL_MS = 10_000;

export function stageText(stage: string): string {
  const key = `stage.${stage}` as Key;
  return t(key) === key ? stage : t(key);
}

export function variantText(v: string): string {
  return v === 'jieqi' ? t('jieqi') : t('xiangqi');
}

// `club`: opened from a club's page ("New event for this club"): the form open, for that club.
export function TournamentsPage({ app, club }: { app: App; club?: string }) {
  const [events, setEvents] = useState<EventSummary[] | null>(null);
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(!!club);
  // Creating events is the organiser role's (an admin grants it); the server checks it too.
  const canOrganise = app.conn.role === 'organiser' || app.conn.role === 'admin';

  // Asked on opening the page and again with each poll, so a grant shows even when one answer is
  // lost to a reconnect.
  useEffect(() => {
    const refresh = () => void app.conn.refreshSession().then(() => app.notify());
    refresh();
    const timer = window.setInterval(() => app.link === 'open' && refresh(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [app]);

  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const list = await api<EventSummary[] | { events: EventSummary[] }>('GET', '/api/events');
        if (live) {
          setEvents(Array.isArray(list) ? list : list.events ?? []);
          setError('');
        }
      } catch (e) {
        if (live) setError(apiErrorText(e));
      }
    };
    void load();
    const timer = window.setInterval(load, POLL_MS);
    const off = app.onNoticeMessage((n) => n.kind === 'notice' && void load());
    return () => {
      live = false;
      off();
      window.clearInterval(timer);
    };
  }, [app]);

  return (
    <div class="tournaments">
      <section class="panel">
        <div class="row spread">
          <h2>{t('tournaments')}</h2>
          {/* One group at the right: spread alone would float the Clubs link mid-row. */}
          <span class="row">
            <a class="button" data-testid="clubs-link" href="#/clubs">{t('clubs')}</a>
            {canOrganise ? (
              <button class="primary" data-testid="new-event" onClick={() => setCreating(!creating)}>{creating ? t('cancel') : t('createEvent')}</button>
            ) : (
              <span class="muted" data-testid="organiser-needed">{t('organiserRoleNeeded')}</span>
            )}
          </span>
        </div>
        {events === null && !error && <p class="muted">{t('loading')}</p>}
        {events?.length === 0 && <p class="muted">{t('noEvents')}</p>}
        <ul class="list" data-testid="event-list">
          {(events ?? []).map((e) => (
            <li key={e.id} data-event={e.id}>
              <a class="who" href={`#/tournaments/${encodeURIComponent(e.id)}`}>{e.name || e.id}</a>
              <span class="tag">{zhParts(variantText(e.variant))}</span>
              <span class={`tag stage-${e.stage}`}>{stageText(e.stage)}</span>
              <span class="muted">{e.players === 1 ? t('onePlayer') : t('nPlayers', { n: e.players })}</span>
              <span class="muted">{t('roundsOf', { n: e.rounds_paired, of: e.rounds })}</span>
              <a class="button" data-testid="open-event" href={`#/tournaments/${encodeURIComponent(e.id)}`}>{t('open')}</a>
            </li>
          ))}
        </ul>
        {error && <p class="error" role="alert">{error}</p>}
      </section>
      {creating && canOrganise && <EventForm app={app} club={club} />}
    </div>
  );
}

// Every setting of POST /api/events. Times are entered in minutes/seconds, sent in ms. With
// `editing` the same form changes an event's settings (POST /api/events/{id}/settings, through
// `onSave`): in registration every setting but its id, club and variant; once it has started only
// those about the rounds to come, and the others are not shown.
// `club`: a new event for that club, members only (both still editable).
export function EventForm({ app, editing, onSave, club }: { app: App; editing?: EventDetail; onSave?: (body: Record<string, unknown>) => Promise<boolean>; club?: string }) {
  const mode = !editing ? 'create' : editing.stage === 'registration' ? 'registration' : 'running';
  const full = mode !== 'running';
  const [f, setF] = useState(() => (editing ? formFromConfig(editing.config) : club ? clubEventForm(club) : NEW_EVENT_FORM));
  // Worded at each render (a thunk), so a language switch re-words it; with the field it is about
  // (marked invalid, described by it), if any.
  const [error, setErrorOnly] = useState<{ text: () => string; field: EventField | null } | null>(null);
  const setError = (text: (() => string) | null, field: EventField | null = null) => setErrorOnly(text && { text, field });
  const errorId = `${editing ? 'event-settings' : 'event-form'}-error`;
  const errorOf = (k: EventField) => errorProps(errorId, error?.field === k);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof f) => (e: Event) => {
    const el = e.currentTarget as HTMLInputElement;
    const v = el.type === 'checkbox' ? el.checked : typeof f[k] === 'number' ? Number(el.value) : el.value;
    setF({ ...f, [k]: v });
  };

  // Until the organiser picks a preset, the form shows and sends the one the server would give the
  // variant, so a Xiangqi event made without touching the list does not get Jieqi's tiebreaks.
  const preset = formPreset(f);

  const submit = async () => {
    setError(null);
    let body: Record<string, unknown>;
    try {
      body = eventSettingsBody(f, mode, randomSeed);
    } catch (e) {
      if (!(e instanceof BadPairsError)) throw e;
      setError(() => t('badPairs', { text: e.message }), 'forbidden');
      return;
    }
    setBusy(true);
    try {
      if (onSave) {
        await onSave(body);
        return;
      }
      const r = await api<{ ok: boolean; event_id: string }>('POST', '/api/events', body, { token: app.conn.token });
      app.navigate(`#/tournaments/${encodeURIComponent(r.event_id || String(body.id))}`);
    } catch (e) {
      setError(() => apiErrorText(e), eventFieldOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class={editing ? 'event-settings' : 'panel'}>
      {!editing && <h2>{t('createEvent')}</h2>}
      {!editing && club && <p class="muted" data-testid="club-event-note">{t('clubEventNote', { club })}</p>}
      {mode === 'running' && <p class="muted small" data-testid="settings-running-help">{t('settingsRunningHelp')}</p>}
      <form
        class="seek-form event-form"
        data-testid={editing ? 'event-settings-form' : 'event-form'}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label class="wide">
          {t('eventName')}
          <input data-testid="ev-name" {...errorOf('name')} required maxLength={80} value={f.name} onInput={set('name')} />
        </label>
        {!editing && (
          <label>
            {t('eventId')}
            <input data-testid="ev-id" {...errorOf('id')} placeholder={t('optional')} pattern="[A-Za-z0-9_\-]*" maxLength={40} value={f.id} onInput={set('id')} />
          </label>
        )}
        {!editing && (
          <label>
            {t('clubId')}
            <input data-testid="ev-club" {...errorOf('club_id')} value={f.club_id} placeholder={t('optional')} onInput={set('club_id')} />
          </label>
        )}
        {full && (<>
        <label>
          {t('variant')}
          <select data-testid="ev-variant" value={f.variant} disabled={!!editing} onChange={set('variant')}>
            <option value="xiangqi">{t('xiangqi')}</option>
            <option value="jieqi">{t('jieqi')}</option>
          </select>
        </label>
        <label>
          {t('ruleset')}
          <select data-testid="ev-ruleset" value={f.ruleset} onChange={set('ruleset')}>
            {RULESETS.map(([value, key]) => <option value={value}>{t(key)}</option>)}
          </select>
        </label>
        {f.variant === 'jieqi' && (
          <label>
            {t('captureVisibility')}
            <select value={f.capture_visibility} onChange={set('capture_visibility')}>
              <option value="capturer">{t('cv.capturer')}</option>
              <option value="nobody">{t('cv.nobody')}</option>
              <option value="both">{t('cv.both')}</option>
            </select>
          </label>
        )}
        <RuleOptionsFields value={f.rules} onChange={(rules) => setF({ ...f, rules })} jieqi={f.variant === 'jieqi'} testid="ev" />
        </>)}
        <label>
          {t('minutes')}
          <input data-testid="ev-minutes" type="number" min="0.05" max="360" step="any" value={f.minutes} onInput={set('minutes')} />
        </label>
        <label>
          {t('increment')}
          <input data-testid="ev-increment" type="number" min="0" max="120" value={f.increment} onInput={set('increment')} />
        </label>
        <label>
          {t('rounds')}
          <input data-testid="ev-rounds" type="number" min="1" max="30" value={f.rounds} onInput={set('rounds')} />
        </label>
        {full && (<>
        <label>
          {t('gamesPerRound')}
          <select data-testid="ev-games-per-round" value={f.games_per_round} onChange={set('games_per_round')}>
            <option value={1}>1</option>
            <option value={2}>2</option>
          </select>
        </label>
        <label>
          {t('round1Mode')}
          <select data-testid="ev-round1" value={f.round1} onChange={set('round1')}>
            {['adjacent', 'adjacent-alternating', 'fold', 'random'].map((m) => (
              <option value={m}>{t(`r1.${m}` as Key)}</option>
            ))}
          </select>
        </label>
        <label>
          {t('tiebreaks')}
          <select data-testid="ev-tiebreak-preset" value={f.tiebreak_mode === 'preset' ? preset : 'custom'} onChange={(e) => {
            const v = e.currentTarget.value;
            setF(v === 'custom' ? { ...f, tiebreak_mode: 'custom' } : { ...f, tiebreak_mode: 'preset', tiebreak_preset: v });
          }}>
            {['jieqi', 'cxa-14.3.1', 'cxa-14.3.2', 'senior'].map((p) => (
              <option value={p}>{t(`tbp.${p}` as Key)}</option>
            ))}
            <option value="custom">{t('tbp.custom')}</option>
          </select>
          {f.tiebreak_mode === 'preset' && (
            <span class="muted note" data-testid="ev-tiebreak-preset-list" data-ids={(TIEBREAK_PRESETS[preset] ?? []).join(',')}>{zhParts((TIEBREAK_PRESETS[preset] ?? []).map(tiebreakName).join(' › '))}</span>
          )}
        </label>
        <label>
          {zhParts(t('byeOpp'))}
          <select data-testid="ev-bye-opp" value={f.bye_opp} onChange={set('bye_opp')}>
            {BYE_OPP_POLICIES.map((p, i) => (
              <option value={i}>{t(`byeOpp.${p}` as Key)}</option>
            ))}
          </select>
        </label>
        {f.tiebreak_mode === 'custom' && (
          <label class="wide">
            {t('tiebreakList')}
            <input data-testid="ev-tiebreaks" {...errorOf('tiebreaks')} value={f.tiebreaks} onInput={set('tiebreaks')} />
          </label>
        )}
        </>)}
        <label>
          {t('noShowMinutes')}
          <input data-testid="ev-no-show" type="number" min="0.1" max="120" step="any" value={f.no_show_minutes} onInput={set('no_show_minutes')} />
          {Number(f.no_show_minutes) >= Number(f.minutes) && (
            <span class="muted small" data-testid="ev-no-show-moot">{t('noShowLongerThanClock')}</span>
          )}
        </label>
        <label title={t('spectatorDelayHelp')}>
          {t('spectatorDelaySeconds')}
          <input data-testid="ev-spectator-delay" type="number" min="0" max="300" step="1" value={f.spectator_delay_s} onInput={set('spectator_delay_s')} />
        </label>
        {full && (
          <label>
            {t('maxForfeits')}
            <input type="number" min="0" max="30" value={f.max_forfeits} onInput={set('max_forfeits')} />
          </label>
        )}
        <label>
          {t('access')}
          <select data-testid="ev-access" value={f.access} onChange={set('access')}>
            <option value="open">{t('access.open')}</option>
            <option value="members">{t('access.members')}</option>
            <option value="code">{t('access.code')}</option>
          </select>
        </label>
        {f.access === 'code' && (
          <label>
            {t('joinCode')}
            <input data-testid="ev-join-code" required={!editing || editing.config.access !== 'code'}
              placeholder={editing?.config.access === 'code' ? t('joinCodeUnchanged') : ''} value={f.join_code} onInput={set('join_code')} />
          </label>
        )}
        <label>
          {t('lateJoinUntil')}
          <input type="number" min="0" max="30" value={f.late_join_until_round} onInput={set('late_join_until_round')} />
        </label>
        <label class="check">
          <input data-testid="ev-auto-rounds" type="checkbox" checked={f.auto_rounds} onChange={set('auto_rounds')} />
          {t('autoRounds')}
        </label>
        <label class="check">
          <input data-testid="ev-playoff" type="checkbox" checked={f.playoff} onChange={set('playoff')} />
          {t('playoff')}
        </label>
        {f.playoff && (
          <>
            <label>
              {t('playoffAfter')}
              <input data-testid="ev-playoff-after" type="number" min="1" max="30" value={f.playoff_after_round || f.rounds} onInput={set('playoff_after_round')} />
            </label>
            <label>
              {t('playoffSize')}
              <select data-testid="ev-playoff-size" value={f.playoff_size} onChange={set('playoff_size')}>
                <option value={2}>2</option>
                <option value={4}>4</option>
              </select>
            </label>
          </>
        )}
        {full && (<>
        <details class="wide">
          <summary>{t('moreSettings')}</summary>
          <div class="seek-form">
            <label>
              {t('startTime')}
              <input type="datetime-local" value={f.start} onInput={set('start')} />
            </label>
            <label>
              {t('seed')}
              <input data-testid="ev-seed" {...errorOf('seed')} type="number" min="0" placeholder={t('optional')} value={f.seed} onInput={set('seed')} />
            </label>
            <label>
              {t('winPoints')}
              <input type="number" min="0" max="10" value={f.win_points} onInput={set('win_points')} />
            </label>
            <label>
              {t('drawPoints')}
              <input type="number" min="0" max="10" value={f.draw_points} onInput={set('draw_points')} />
            </label>
            <label>
              {t('lossPoints')}
              <input type="number" min="0" max="10" value={f.loss_points} onInput={set('loss_points')} />
            </label>
            <label class="wide">
              {t('forbiddenPairs')}
              <input data-testid="ev-forbidden" {...errorOf('forbidden')} placeholder="0-1, 2-3" value={f.forbidden} onInput={set('forbidden')} />
            </label>
          </div>
        </details>
        <details class="wide" data-testid="ev-policies">
          <summary>{t('policies')}</summary>
          {POLICIES.map((k) => (
            <label class="check" key={k}>
              <input data-testid={`ev-policy-${k}`} type="checkbox" checked={f.policies[k]}
                onChange={(e) => setF({ ...f, policies: { ...f.policies, [k]: e.currentTarget.checked } })} />
              {zhParts(t(`policy.${k}`))}
            </label>
          ))}
        </details>
        </>)}
        <div class="row">
          <button class="primary" data-testid={editing ? 'save-settings' : 'create-event'} disabled={busy || !f.name.trim()}>{editing ? t('saveSettings') : t('createEvent')}</button>
        </div>
        {error && <p class="error wide" role="alert" id={errorId} data-testid="event-form-error">{error.text()}</p>}
      </form>
    </section>
  );
}

// The event form's fields a refusal may be about: its own check of the forbidden pairs, and the
// tournament service's answers that name one (matchmaker/service: an id or club taken or unknown,
// a tiebreak or seed it cannot read).
type EventField = 'name' | 'id' | 'club_id' | 'tiebreaks' | 'seed' | 'forbidden';
function eventFieldOf(e: unknown): EventField | null {
  const { code, message = '' } = (e ?? {}) as { code?: string; message?: string };
  if (code === 'exists') return /club/.test(message) ? 'club_id' : 'id';
  if (code === 'unknown_club' || code === 'not_member') return 'club_id';
  if (code !== 'bad_request') return null;
  if (/tiebreak/.test(message)) return 'tiebreaks';
  if (/'seed'/.test(message)) return 'seed';
  if (/forbidden/.test(message)) return 'forbidden';
  if (/'name'/.test(message)) return 'name';
  if (/'id'/.test(message)) return 'id';
  return null;
}

// 1 … 2^31 − 1, from the browser's CSPRNG.
function randomSeed(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return (a[0] % 0x7fffffff) + 1;
}

export function tiebreakName(c: string): string {
  const key = `tb.${c}` as Key;
  return t(key) === key ? c : t(key);
}

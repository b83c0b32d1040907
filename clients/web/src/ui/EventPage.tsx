// One tournament (#/tournaments/ID): registration (join with an optional code, withdraw), "your next
// game", pairings per round with the arbiter's explain lines, standings with every tiebreak column,
// the crosstable, the play-off, and the organiser's controls. Refreshed on the server's notices for
// this event, after a reconnect, and by a slow poll.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app';
import { apiErrorText, captureVisibilityText, paren, reasonText, t, useLang, warningText, type Key } from '../i18n';
import { api, ApiError } from '../net/http';
import { BYE_OPP_POLICIES, type EventNotice, boardScore, byRoundAndBoard, sortedByName, noticeText, colourLetter, crossCellText, crossCellWords, hasResult, joinOpen, knockoutName, pairingText, pairsFromNumbers, playerName, myPlace, playerOf, roundToStart, sbText, shownStandings, slotsOf, tiebreakCell, tiebreakColumns } from '../tournament/logic';
import { BYE, type Crosstable, type EventDetail, type EventPlayer, type GameSlot, type KnockoutGame, type NextGame, type Standings, type StandingsRow } from '../tournament/types';
import { ruleOptionTags } from '../game/rule_options';
import { durationText, rulesetTag, tcText } from './format';
import { EventForm, stageText, tiebreakName, variantText } from './TournamentsPage';
import { errorProps } from './form_validity';
import { zhParts } from './lang';

const POLL_MS = 10_000;

type Data = { ev: EventDetail | null; standings: Standings | null; cross: Crosstable | null; next: NextGame | null; clubOrganisers: string[]; clubName: string; clubGone: boolean; error: string };

export function EventPage({ app, id }: { app: App; id: string }) {
  const [data, setData] = useState<Data>({ ev: null, standings: null, cross: null, next: null, clubOrganisers: [], clubName: '', clubGone: false, error: '' });
  const [round, setRound] = useState<number | null>(null); // null = the latest paired round
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  // A bare "Done." goes after a while: left standing under the title it read as news for the rest
  // of the event (web review, 2026-12-03). Warnings and refusals stay until the next action.
  useEffect(() => {
    if (!msg?.ok || msg.text !== t('done')) return;
    const timer = window.setTimeout(() => setMsg((m) => (m === msg ? null : m)), 8000);
    return () => window.clearTimeout(timer);
  }, [msg]);
  const [busy, setBusy] = useState(false);
  const [news, setNews] = useState<EventNotice | null>(null); // the latest event notice ("round 2 paired")
  const enc = encodeURIComponent(id);

  // Loads can overlap (poll, notice, reconnect): only the latest one is applied, and a failed
  // reload keeps what is on screen.
  const seq = useRef(0);
  // No such event (404): the page says so and stops polling for it (it asked for the event, its
  // standings, crosstable and next game every 10 s, four 404s each time).
  const missing = useRef(false);
  const load = useCallback(async () => {
    const mySeq = ++seq.current;
    const auth = { token: app.conn.token };
    const [ev, st, cr, nx] = await Promise.allSettled([
      api<EventDetail>('GET', `/api/events/${enc}`),
      api<Standings>('GET', `/api/events/${enc}/standings`),
      api<Crosstable>('GET', `/api/events/${enc}/crosstable`),
      // Only with a session: signed out it can only be refused (401, twice a load in the console).
      app.user ? api<NextGame>('GET', `/api/events/${enc}/next`, undefined, auth) : Promise.resolve<NextGame>({}),
    ]);
    const val = <T,>(r: PromiseSettledResult<T>) => (r.status === 'fulfilled' ? r.value : null);
    const e = val(ev);
    // Organisers of the event's club may run it too; its name for the link to the club's page.
    // A deleted club (its finished events stay) is named by its id, without a link.
    let club: string[] = [];
    let clubName = '';
    let clubGone = false;
    if (e?.config.club_id) {
      const c = await api<{ name?: string; organisers?: string[] }>('GET', `/api/clubs/${encodeURIComponent(e.config.club_id)}`).catch((err) => {
        clubGone = err instanceof ApiError && err.status === 404 && err.code === 'unknown_club';
        return null;
      });
      club = c?.organisers ?? [];
      clubName = c?.name ?? '';
    }
    if (mySeq !== seq.current) return;
    if (e) for (const g of e.games ?? []) if (g.game_id) app.eventOfGame.set(g.game_id, id);
    const error = ev.status === 'rejected' ? apiErrorText(ev.reason) : '';
    missing.current = ev.status === 'rejected' && (ev.reason as { status?: number })?.status === 404;
    setData((old) =>
      e
        ? { ev: e, standings: val(st), cross: val(cr), next: val(nx), clubOrganisers: club, clubName, clubGone, error: '' }
        : { ...old, error },
    );
  }, [app, id]);

  useEffect(() => {
    void load();
    const timer = window.setInterval(() => missing.current || void load(), POLL_MS);
    const offNotice = app.onNoticeMessage((n) => {
      if (n.eventId !== id) return;
      if (n.kind === 'notice' && (n.code || n.text)) setNews({ code: n.code, params: n.params, text: n.text });
      void load();
    });
    const offReady = app.conn.onReady(() => void load());
    return () => {
      window.clearInterval(timer);
      offNotice();
      offReady();
    };
  }, [app, id, load]);

  const ev = data.ev;
  const evName = ev ? ev.config.name || ev.config.id : '';
  useEffect(() => app.namePage(`tournaments/${id}`, evName), [app, id, evName]);
  if (!ev) return <p class={data.error ? 'error' : 'muted'} data-testid="event-error">{data.error || t('loading')}</p>;

  const me = playerOf(ev, app.user?.userId);
  const mine = me >= 0 ? ev.players[me] : null;
  const cfg = ev.config;
  const uid = app.user?.userId;
  const organises = !!uid && (cfg.organiser === uid || data.clubOrganisers.includes(uid));
  const isOrganiser = organises || !!app.adminToken;
  const paired = ev.rounds.length;
  const shown = round ?? paired;

  // Player actions use the session; organiser actions the session of the organiser, or the
  // admin token for an administrator who is not the organiser.
  // `errorText` may word a refusal for the case at hand (else the API's code is translated).
  const act = async (path: string, body?: unknown, organiser = false, errorText?: (e: unknown) => string | undefined) => {
    setBusy(true);
    setMsg(null);
    try {
      const auth = organiser && app.adminToken && !organises ? { adminToken: app.adminToken } : { token: app.conn.token };
      const r = await api<{ ok?: boolean; warnings?: string[] }>('POST', `/api/events/${enc}/${path}`, body ?? {}, auth);
      const warnings = r?.warnings?.length ? ` ${t('warnings')}${t('resultSep')}${r.warnings.map(warningText).join(t('clauseSep'))}` : '';
      setMsg({ ok: true, text: `${t('done')}${warnings}` });
      await load();
      return true;
    } catch (e) {
      setMsg({ ok: false, text: errorText?.(e) ?? apiErrorText(e) });
      // Refused because the event moved on (another tab, the other organiser, a game ending):
      // show where it is now.
      await load().catch(() => undefined);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="event-page" data-testid="event-page" data-event={id} data-stage={ev.stage} data-rounds-paired={paired}>
      <section class="panel event-head">
        <div class="row spread">
          <h2 data-testid="event-name">{cfg.name || cfg.id}</h2>
          <a class="button" href="#/tournaments">{t('allEvents')}</a>
        </div>
        <div class="meta">
          <span class="tag">{zhParts(variantText(cfg.variant))}</span>
          <span class="tag">{rulesetTag(cfg.ruleset)}</span>
          {ruleOptionTags({
            repetitions: cfg.repetitions,
            pawnsAdvisorsElephantsFree: cfg.pawns_advisors_elephants_free,
            moveLimitPlies: cfg.move_limit_plies,
            countedChecksPerSide: cfg.counted_checks_per_side,
            requestedMoveLimitPlies: cfg.requested_move_limit_plies,
            requestedMoveLimitForcingCap: cfg.requested_move_limit_forcing_cap,
          }).map((tag) => (
            <span class="tag" data-testid="event-rule-option">{tag}</span>
          ))}
          <span class="tag">{tcText({ initialMs: cfg.initial_ms, incrementMs: cfg.increment_ms })}</span>
          <span class="tag">{t('roundsOf', { n: paired, of: cfg.pairing?.rounds ?? '?' })}</span>
          {(cfg.pairing?.games_per_round ?? 1) > 1 && <span class="tag">{t('nGamesPerRound', { n: cfg.pairing.games_per_round })}</span>}
          <span class={`tag stage-${ev.stage}`} data-testid="event-stage">{stageText(ev.stage)}</span>
          {cfg.access !== 'open' && <span class="tag">{t(`access.${cfg.access}` as Key)}</span>}
        </div>
        {cfg.club_id && (
          <p class="event-club">
            {data.clubGone ? (
              <span class="muted" data-testid="event-club-gone">{t('eventClubGone', { id: cfg.club_id })}</span>
            ) : (
              <a data-testid="event-club-link" href={`#/club/${encodeURIComponent(cfg.club_id)}`}>{t('eventClub', { name: data.clubName || cfg.club_id })}</a>
            )}
          </p>
        )}
        <EventRules ev={ev} />
        {ev.stage === 'paused' && (
          <p class="muted" data-testid="paused-note">
            {ev.paused_by === 'pairing' ? `${t('pausedNoPairing')} ` : ev.pause_reason ? `${t('pausedBecause', { reason: ev.pause_reason })} ` : ''}
            {t('pausedNote')}
          </p>
        )}
        {ev.stage === 'cancelled' && (
          <p class="error" data-testid="cancelled-note">
            {ev.cancel_reason ? t('eventCancelledBecause', { reason: ev.cancel_reason }) : t('eventCancelled')}
          </p>
        )}
        {news && !(ev.stage === 'cancelled' && news.code?.startsWith('event_cancelled')) && (
          <p class="event-notice" role="status">
            <span class="news-label">{t('eventNews')}</span>{' '}
            <span data-testid="event-notice">{noticeText(news)}</span>
          </p>
        )}
        {data.error && <p class="error" role="alert">{data.error}</p>}
        {msg && <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'} data-testid="event-msg">{msg.text}</p>}
      </section>

      <div class="event-main">
        <NextGameView next={data.next} registered={!!mine} stage={ev.stage} place={myPlace(ev, data.standings, me)} byeRound={byeRound(ev, me)} paired={pairedBoard(ev, me)} />
        <Pairings ev={ev} shown={shown} me={me} onRound={setRound} />
        {ev.playoff && <PlayoffView ev={ev} />}
        <StandingsView ev={ev} standings={data.standings} me={me} />
        <CrosstableView ev={ev} cross={data.cross} me={me} />
      </div>

      <aside class="event-side">
        <Registration ev={ev} me={me} busy={busy} signedIn={!!app.user} onJoin={(code) => void act('join', code ? { join_code: code } : {})} onWithdraw={() => {
          if (window.confirm(t(ev.stage === 'registration' ? 'confirmWithdraw' : 'confirmWithdrawRunning'))) void act('withdraw');
        }} onWithdrawPlayer={isOrganiser ? (userId, name) => {
          if (window.confirm(t('confirmWithdrawPlayer', { name }))) void act('withdraw', { user_id: userId }, true);
        } : undefined} onReinstatePlayer={isOrganiser ? (userId, name) => {
          if (window.confirm(t('confirmReinstatePlayer', { name }))) void act('reinstate', { user_id: userId }, true);
        } : undefined} onSanction={isOrganiser ? (kind, userId, name) => {
          const reason = window.prompt(t(kind === 'warn' ? 'confirmWarnPlayer' : 'confirmDisqualifyPlayer', { name }));
          if (reason !== null) void act(kind, { user_id: userId, reason: reason.trim() }, true);
        } : undefined} onRegisterAccount={isOrganiser ? (account) =>
          act('join', { account }, true, (e) => ((e as { code?: string }).code === 'already_joined' ? t('alreadyRegisteredName', { name: account }) : undefined))
          : undefined} />
        {isOrganiser && <OrganiserControls ev={ev} busy={busy} act={(p, b, _organiser, errorText) => void act(p, b, true, errorText)} app={app} saveSettings={(b) => act('settings', b, true)} />}
        <section class="panel">
          <a class="button" href={`/api/events/${enc}/trf`} target="_blank" rel="noopener">{t('trfExport')}</a>
        </section>
      </aside>
    </div>
  );
}

// What decides the standings, and for Jieqi who sees captured face-down pieces: players can check
// the rules they play under.
function EventRules({ ev }: { ev: EventDetail }) {
  const p = ev.config.pairing;
  if (!p) return null;
  const tbs = (p.tiebreaks ?? []).map((c, i) => `${i + 1}. ${tiebreakName(c)}`).join(' · ');
  const bye = BYE_OPP_POLICIES[p.bye_opp ?? 0];
  return (
    <ul class="event-rules muted" data-testid="event-rules">
      <li data-testid="event-points">{t('pointsWDL', { w: p.win_points, d: p.draw_points, l: p.loss_points })}</li>
      {tbs && <li data-testid="event-tiebreaks">{t('rankedBy', { list: tbs })}</li>}
      {bye && (p.tiebreaks ?? []).includes('opp_score') && <li>{zhParts(t('byeOppRule', { rule: t(`byeOpp.${bye}` as Key) }))}</li>}
      {ev.config.no_show_ms > 0 && <li data-testid="event-no-show">{t('noShowRule', { time: durationText(ev.config.no_show_ms) })}</li>}
      {(p.max_forfeits ?? 0) > 0 && <li data-testid="event-max-forfeits">{t('maxForfeitsRule', { n: p.max_forfeits! })}</li>}
      {(ev.config.spectator_delay_ms ?? 0) > 0 && (
        <li data-testid="event-spectator-delay">{t('spectatorDelayRule', { time: durationText(ev.config.spectator_delay_ms!) })}</li>
      )}
      {/* The play-off and how rounds and late entries go: what a player asks before joining. */}
      {ev.config.playoff_after_round > 0 && (
        <li data-testid="event-playoff">
          {t(ev.config.playoff_size === 2 ? 'playoffRule2' : 'playoffRule4', { n: ev.config.playoff_after_round })}
          {ev.config.playoff_after_round < p.rounds && ` ${t('playoffOthersRule', { to: p.rounds })}`}
        </li>
      )}
      {ev.config.late_join_until_round > 1 && <li data-testid="event-late-join">{t('lateJoinRule', { n: ev.config.late_join_until_round })}</li>}
      {ev.config.auto_rounds === false && <li data-testid="event-manual-rounds">{t('manualRoundsRule')}</li>}
      {ev.config.variant === 'jieqi' && ev.config.capture_visibility && (
        <li>{captureVisibilityText(ev.config.capture_visibility)}</li>
      )}
    </ul>
  );
}

// The last paired round, if it gave player `me` the bye (a board of theirs with no opponent).
function byeRound(ev: EventDetail, me: number): number | undefined {
  if (me < 0 || !ev.rounds.length) return undefined;
  const last = ev.rounds[ev.rounds.length - 1];
  return last.boards.some((b) => b.a === me && (b.bye || b.b === BYE)) ? ev.rounds.length : undefined;
}

// My board in the last round if it is paired and not started yet (its game does not exist yet, so
// /next has nothing): the player learns the opponent and colour before the round starts.
function pairedBoard(ev: EventDetail, me: number): { round: number; board: number; red: boolean; opponent: string } | undefined {
  if (me < 0 || !ev.rounds.length) return undefined;
  const r = ev.rounds.length;
  const last = ev.rounds[r - 1];
  if (last.started ?? (ev.rounds_started ?? r) >= r) return undefined;
  const i = last.boards.findIndex((b) => b.b !== BYE && !b.bye && (b.a === me || b.b === me));
  if (i < 0) return undefined;
  const b = last.boards[i];
  return { round: r, board: i + 1, red: b.a === me, opponent: playerName(ev, b.a === me ? b.b : b.a) };
}

function NextGameView({
  next,
  registered,
  stage,
  place,
  byeRound,
  paired,
}: {
  next: NextGame | null;
  registered: boolean;
  stage: string;
  place: ReturnType<typeof myPlace>;
  byeRound?: number;
  paired?: ReturnType<typeof pairedBoard>;
}) {
  if (!registered || stage === 'cancelled') return null; // the cancellation note says it all
  const has = !!next?.game_id;
  const colour = colourLetter(next?.colour);
  const o = next?.opponent;
  const opponent = o === undefined || o === null ? '' : typeof o === 'object' ? o.name : String(o);
  return (
    <section class="panel next-game" data-testid="next-game" data-game={next?.game_id ?? ''}>
      <h3>{t('yourNextGame')}</h3>
      {has ? (
        <>
          <p>
            {(next!.board ?? 0) > 0 ? t('roundBoard', { r: next!.round ?? '?', b: next!.board! }) : `${t('roundN', { n: next!.round ?? '?' })} · ${t('playoff')}`}
            {colour && <> · {t('youPlay', { side: colour === 'r' ? t('red') : t('black') })}</>}
            {opponent && <> · {t('vs')} <strong data-testid="next-opponent">{opponent}</strong></>}
          </p>
          <a class="button primary" data-testid="next-game-link" href={`#/game/${encodeURIComponent(next!.game_id!)}`}>{t('openGameNow')}</a>
        </>
      ) : paired ? (
        <p data-testid="next-paired">
          {t('roundBoard', { r: paired.round, b: paired.board })} · {t('youPlay', { side: paired.red ? t('red') : t('black') })} · {t('vs')}{' '}
          <strong data-testid="next-opponent">{paired.opponent}</strong> · <span class="muted">{t('pairedNotStarted')}</span>
        </p>
      ) : (
        <p class="muted" data-testid="no-game-now">
          {stage === 'finished' ? t('eventFinished') : byeRound ? t('youHaveTheBye', { n: byeRound }) : t('noGameNow')}
        </p>
      )}
      {place && (
        <p data-testid="my-place">
          <strong>{place.place ? t(place.final ? 'myFinalPlace' : 'myPlace', { n: place.place, of: place.of, r: place.after }) : t('disqualified')}</strong> · {t('myScore', { s: place.score })}
        </p>
      )}
    </section>
  );
}

function Registration(props: {
  ev: EventDetail; me: number; busy: boolean; signedIn: boolean; onJoin: (code: string) => void; onWithdraw: () => void;
  // The organiser's: withdraw a player (a no-show, someone who left the hall), and register a
  // player who has an account (a club member without the page at hand), by the account's name.
  onWithdrawPlayer?: (userId: string, name: string) => void;
  // …and take a withdrawal back (a player who withdrew by mistake, or came back).
  onReinstatePlayer?: (userId: string, name: string) => void;
  // The regulation's sanctions once the event has started: 警告 (a warning, on record) and
  // 取消比赛资格 (disqualified: paired no more, and not ranked).
  onSanction?: (kind: 'warn' | 'disqualify', userId: string, name: string) => void;
  onRegisterAccount?: (account: string) => Promise<boolean>;
}) {
  const { ev, me, busy } = props;
  const [code, setCode] = useState('');
  const [account, setAccount] = useState('');
  const cfg = ev.config;
  const mine = me >= 0 ? ev.players[me] : null;
  // A player out at the event's forfeit limit is as good as withdrawn: no "registered", no withdraw.
  const withdrawn = !!mine?.withdrawn_round || !!mine?.removed_after_round;
  const canJoin = joinOpen(ev);
  return (
    <section class="panel" data-testid="registration">
      <h3>{t('players')}{paren(ev.players.length)}</h3>
      <ol class="players" data-testid="player-list">
        {byNumber(ev).map(([p, i]) => (
          <li key={i} class={i === me ? 'me' : ''} data-player={p.name}>
            {p.number ? <span class="num">{p.number}</span> : null}
            <span>{p.name}</span>
            {p.disqualified ? (
              <span class="tag" data-testid="disqualified" title={p.disqualified_reason || undefined}>{t('disqualified')}</span>
            ) : p.withdrawn_round ? <span class="tag">{t('withdrawn')}</span> : null}
            {/* The reason in words too: a title alone never shows on a phone (no hover). */}
            {p.disqualified && p.disqualified_reason ? <span class="muted" data-testid="disqualified-reason">{p.disqualified_reason}</span> : null}
            {p.warnings?.length ? (
              <span class="muted" data-testid="warnings">
                <span class="tag">{t('warnedN', { n: p.warnings.length })}</span> {p.warnings.filter((w) => w).join('; ')}
              </span>
            ) : null}
            {p.removed_after_round ? <span class="tag" data-testid="removed">{t('removedForfeits')}</span> : null}
            {props.onWithdrawPlayer && p.user_id && !p.withdrawn_round && !p.removed_after_round && i !== me && ['registration', 'running', 'paused'].includes(ev.stage) && (
              <button class="link small" data-testid="withdraw-player" disabled={busy}
                      onClick={() => props.onWithdrawPlayer!(p.user_id!, p.name)}>{t('withdrawPlayer')}</button>
            )}
            {props.onReinstatePlayer && p.user_id && !!p.withdrawn_round && !p.disqualified && ['running', 'paused'].includes(ev.stage) && (
              <button class="link small" data-testid="reinstate-player" disabled={busy}
                      onClick={() => props.onReinstatePlayer!(p.user_id!, p.name)}>{t('reinstatePlayer')}</button>
            )}
            {props.onSanction && p.user_id && !p.disqualified && i !== me && ['running', 'paused', 'finished'].includes(ev.stage) && (
              <>
                <button class="link small" data-testid="warn-player" disabled={busy}
                        onClick={() => props.onSanction!('warn', p.user_id!, p.name)}>{t('warnPlayer')}</button>
                <button class="link small" data-testid="disqualify-player" disabled={busy}
                        onClick={() => props.onSanction!('disqualify', p.user_id!, p.name)}>{t('disqualifyPlayer')}</button>
              </>
            )}
          </li>
        ))}
      </ol>
      {/* A withdrawn player stays in the list once the event runs (and cannot join again). */}
      {!props.signedIn && canJoin && <p class="muted" data-testid="sign-in-to-join">{t('signInToJoin')}</p>}
      {props.signedIn && !mine && canJoin && (
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            props.onJoin(code.trim());
          }}
        >
          {cfg.access === 'code' && <input data-testid="join-code" placeholder={t('joinCode')} value={code} onInput={(e) => setCode(e.currentTarget.value)} />}
          <button class="primary" data-testid="join-event" disabled={busy}>{t('join')}</button>
        </form>
      )}
      {props.onRegisterAccount && canJoin && (
        <form
          class="register-account"
          data-testid="register-account"
          onSubmit={(e) => {
            e.preventDefault();
            const name = account.trim();
            if (name) void props.onRegisterAccount!(name).then((ok) => ok && setAccount(''));
          }}
        >
          <label class="muted small" for="register-account-name">{t('registerAccountLabel')}</label>
          <div class="row">
            <input id="register-account-name" data-testid="register-account-name" placeholder={t('accountName')} value={account}
                   autocomplete="off" onInput={(e) => setAccount(e.currentTarget.value)} />
            <button data-testid="register-account-save" disabled={busy || !account.trim()}>{t('registerPlayer')}</button>
          </div>
        </form>
      )}
      {mine && !withdrawn && ev.stage !== 'finished' && ev.stage !== 'cancelled' && (
        <div class="row">
          <span class="ok" data-testid="registered">{t('registered')}</span>
          <button data-testid="withdraw" disabled={busy} onClick={props.onWithdraw}>{t('withdraw')}</button>
        </div>
      )}
      {!mine && !canJoin && ev.stage !== 'finished' && ev.stage !== 'cancelled' && <p class="muted">{t('registrationClosed')}</p>}
    </section>
  );
}

// Players in pairing-number order once numbers are drawn, else in registration order.
function byNumber(ev: EventDetail): [EventPlayer, number][] {
  return ev.players.map((p, i) => [p, i] as [EventPlayer, number]).sort((a, b) => (a[0].number || 1e9 + a[1]) - (b[0].number || 1e9 + b[1]));
}

function resultCell(g: GameSlot | undefined): string {
  if (!g) return '';
  if (!g.finished) return '…';
  return `${g.red_points}:${g.black_points}`;
}

function Pairings({ ev, shown, me, onRound }: { ev: EventDetail; shown: number; me: number; onRound: (r: number) => void }) {
  const lang = useLang();
  const paired = ev.rounds.length;
  if (paired === 0) {
    return (
      <section class="panel" data-testid="pairings">
        <h3>{t('pairings')}</h3>
        <p class="muted">{ev.stage === 'cancelled' ? t('eventCancelled') : t('notPairedYet')}</p>
      </section>
    );
  }
  const r = Math.min(Math.max(1, shown), paired);
  const rd = ev.rounds[r - 1];
  const started = rd.started ?? (ev.rounds_started ?? paired) >= r;
  // The arbiter's notes in the reader's language (Chinese where the event stored it).
  const zh = lang === 'zh' && !!ev.explain_zh?.[r - 1]?.length;
  const notes = zh ? ev.explain_zh : ev.explain;
  const explain = notes?.[r - 1]?.length ? notes[r - 1] : rd.boards.map((b) => (zh ? b.explain_zh : b.explain) ?? '').filter(Boolean);
  const name = (p: number) => playerName(ev, p);
  return (
    <section class="panel" data-testid="pairings" data-round={r}>
      <div class="row spread">
        <h3>{t('pairings')}</h3>
        {/* Buttons that say which round is shown (aria-pressed): a tab list would also need its
            panels and arrow keys (accessibility review). */}
        <div class="round-tabs" role="group" aria-label={t('roundPicker')}>
          {ev.rounds.map((_, i) => (
            <button key={i} aria-pressed={i + 1 === r ? 'true' : 'false'} class={i + 1 === r ? 'primary' : ''} data-testid={`round-tab-${i + 1}`} onClick={() => onRound(i + 1)}>
              {t('roundN', { n: i + 1 })}
            </button>
          ))}
        </div>
      </div>
      {!started && <p class="muted">{t('pairedNotStarted')}</p>}
      <div class="table-wrap">
        <table class="grid-table pairings" data-testid={`pairings-round-${r}`}>
          <thead>
            <tr>
              <th>{t('boardShort')}</th>
              <th class="red-h">{t('red')}</th>
              <th>{t('score')}</th>
              <th class="black-h">{t('black')}</th>
              <th>{t('games')}</th>
            </tr>
          </thead>
          <tbody>
            {rd.boards.map((b, i) => {
              const slots = slotsOf(ev, r, i);
              const sc = boardScore(ev, r, i);
              const mineRow = b.a === me || b.b === me;
              return (
                <tr key={i} class={mineRow ? 'me' : ''} data-board={i + 1}>
                  <td>{i + 1}</td>
                  <td class="red-name" data-testid="board-red">{name(b.a)}</td>
                  <td class="score" data-testid="board-score">{b.b === BYE ? t('bye') : sc ? `${sc[0]} – ${sc[1]}` : started ? '…' : ''}</td>
                  <td class="black-name" data-testid="board-black">{b.b === BYE ? <span class="muted">{t('bye')}</span> : name(b.b)}</td>
                  <td class="games">
                    {slots.map((g) => (
                      <a key={g.game_id} class="game-link" data-testid="board-game" data-game={g.game_id} data-finished={g.finished ? '1' : '0'} href={`#/game/${encodeURIComponent(g.game_id)}`} title={g.reason ? reasonText(g.reason) : ''}>
                        {slots.length > 1 ? `${t('gameN', { n: g.index + 1 })} ` : ''}
                        {resultCell(g)}
                        {g.forfeit ? paren(t('forfeitShort')) : ''}
                        {!g.finished && ` ${t('watch')}`}
                      </a>
                    ))}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {rd.unavailable && rd.unavailable.length > 0 && (
        <p class="muted">{t('absent')}{t('resultSep')}{rd.unavailable.map(name).join(t('listSep'))}</p>
      )}
      {explain.length > 0 && (
        <details class="explain" open data-testid="explain">
          <summary>{t('arbiterNotes')}</summary>
          <ul>
            {explain.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function PlayoffView({ ev }: { ev: EventDetail }) {
  const p = ev.playoff!;
  const name = (id: number) => (id >= 0 ? playerName(ev, id) : '?');
  const slot = (ko: string) => ev.games.find((s) => s.knockout === ko);
  const game = (label: string, g: KnockoutGame, ko: string) => {
    const s = slot(ko);
    return (
      <li data-knockout={ko} data-winner={g.winner >= 0 ? name(g.winner) : ''}>
        <span class="tag">{label}</span>
        <span class="red-name">{name(g.red)}</span> {t('vs')} <span class="black-name">{name(g.black)}</span>
        {g.winner >= 0 && <span>→ <strong>{name(g.winner)}</strong></span>}
        {s && (
          <a class="game-link" data-testid="board-game" href={`#/game/${encodeURIComponent(s.game_id)}`}>
            {resultCell(s)}
            {!s.finished && ` ${t('watch')}`}
          </a>
        )}
      </li>
    );
  };
  return (
    <section class="panel" data-testid="playoff">
      <h3>{t('playoff')}</h3>
      <p class="muted">{t('seeds')}{t('resultSep')}{p.seeds.map(name).join(t('listSep'))}</p>
      <ul class="list">
        {p.semifinals.map((g, i) => game(knockoutName(`sf${i + 1}`), g, `sf${i + 1}`))}
        {p.final && p.final.red >= 0 && game(knockoutName('final'), p.final, 'final')}
        {p.third && p.third.red >= 0 && game(knockoutName('third'), p.third, 'third')}
      </ul>
    </section>
  );
}

// Every column the API gives, in the order of the Chinese rules' tables, then the event's own
// tiebreaks in its order (the values that decide the ranking).
// The figures every standings row has, after the event's own tiebreaks: [column, tiebreak id,
// value]. One the event already ranks by is not shown twice (it stays in the table, hidden).
const STANDINGS_FIGURES: [string, string, (r: StandingsRow) => string | number][] = [
  ['opp_score', 'opp_score', (r) => r.opp_score],
  ['progressive', 'progressive', (r) => r.progressive],
  ['sb', 'sonneborn_berger', sbText],
  ['wins', 'wins', (r) => r.wins],
  ['black_wins', 'black_wins', (r) => r.black_wins],
  ['black_games', 'black_games', (r) => r.black_games],
  ['fouls', 'fouls', (r) => r.fouls],
];

function StandingsView({ ev, standings, me }: { ev: EventDetail; standings: Standings | null; me: number }) {
  if (!standings || !standings.rows?.length) return null;
  // Before round 1 is over nobody has a result: a table would rank the players by their lot (and
  // show the lots, and pairing number 0 before the draw), which reads as a ranking that is not.
  if (!standings.after_round) {
    return (
      <section class="panel" data-testid="standings" data-after-round="0">
        <h3>{t('standings')}</h3>
        <p class="muted" data-testid="standings-later">{t('standingsAfterRound1')}</p>
      </section>
    );
  }
  const cols = standings.columns ?? [];
  const tbs = tiebreakColumns(cols, standings.rows);
  return (
    <section class="panel" data-testid="standings" data-after-round={standings.after_round}>
      <h3>
        {t('standings')} <span class="muted">{t('afterRound', { n: standings.after_round })}</span>
      </h3>
      <div class="table-wrap">
        <table class="grid-table standings">
          <thead>
            <tr>
              <th>{t('rank')}</th>
              <th>{t('numberShort')}</th>
              <th class="name">{t('player')}</th>
              <th data-col="score">{t('score')}</th>
              {tbs.shown.map(([c, i]) => (
                <th key={i} class="event-tb" data-col={`tb-${c}`} title={t('eventTiebreak')}>
                  {i + 1}. {zhParts(tiebreakName(c))}
                </th>
              ))}
              {STANDINGS_FIGURES.map(([col, tb]) => (
                <th data-col={col} class={cols.includes(tb) ? 'shown-in-order' : ''}>{zhParts(t(`tb.${tb}` as Key))}</th>
              ))}
              <th data-col="running">{t('running')}</th>
            </tr>
          </thead>
          <tbody>
            {shownStandings(standings.rows).map(({ row: r, rank }) => (
              <tr key={r.player} class={`${r.player === me ? 'me' : ''} ${r.withdrawn ? 'withdrawn' : ''}`} data-player={r.name}>
                <td data-col="rank">{rank ?? '–'}</td>
                <td>{r.number}</td>
                <td class="name" title={r.disqualified_reason || undefined}>
                  {r.name}
                  {r.withdrawn ? paren(t(r.withdrawn_reason === 'forfeits' ? 'removedForfeits' : r.withdrawn_reason === 'disqualified' ? 'disqualified' : 'withdrawn')) : ''}
                </td>
                <td data-col="score"><strong>{r.score}</strong></td>
                {tbs.shown.map(([c, i]) => {
                  const cell = tiebreakCell(c, r.tiebreaks?.[i]);
                  return <td key={i} class="event-tb" data-col={`tb-${c}`} title={cell.title}>{cell.text}</td>;
                })}
                {STANDINGS_FIGURES.map(([col, tb, value]) => (
                  <td data-col={col} class={cols.includes(tb) ? 'shown-in-order' : ''}>{value(r)}</td>
                ))}
                <td data-col="running" class="muted">{(r.running ?? []).join(' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {tbs.empty.length > 0 && (
        <p class="muted note" data-testid="tiebreaks-not-yet">
          {t('tiebreaksNotYet', { list: tbs.empty.map(([c, i]) => `${i + 1}. ${tiebreakName(c)}`).join(' · ') })}
        </p>
      )}
      {tbs.shown.some(([c]) => c === 'prev_round_rank') && <p class="muted note">{t('prevRoundRankHint')}</p>}
      {ev.stage === 'finished' && standings.final_ranking?.length > 0 && (
        <p data-testid="final-ranking">
          {t('finalRanking')}{t('resultSep')}{standings.final_ranking.map((p, i) => `${i + 1}. ${playerName(ev, p)}`).join(' · ')}
        </p>
      )}
    </section>
  );
}

function CrosstableView({ ev, cross, me }: { ev: EventDetail; cross: Crosstable | null; me: number }) {
  if (!cross || !cross.rows?.length || !ev.rounds.length) return null; // nothing paired: no numbers, no rounds
  const n = Math.max(0, ...cross.rows.map((r) => r.rounds?.length ?? 0));
  const numberOf = (p: number) => ev.players[p]?.number || cross.rows.find((r) => r.player === p)?.number;
  return (
    <section class="panel" data-testid="crosstable">
      <h3>{t('crosstable')}</h3>
      <div class="table-wrap">
        <table class="grid-table" aria-describedby="crosstable-help">
          <thead>
            <tr>
              <th>{t('numberShort')}</th>
              <th class="name">{t('player')}</th>
              {Array.from({ length: n }, (_, i) => (
                <th key={i}>{t('roundShort', { n: i + 1 })}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {cross.rows.map((r) => (
              <tr key={r.player} class={r.player === me ? 'me' : ''} data-player={r.name}>
                <td>{r.number}</td>
                <td class="name">
                  {r.name}
                  {ev.players[r.player]?.disqualified ? <span class="tag" data-testid="crosstable-disqualified">{t('disqualified')}</span> : null}
                </td>
                {Array.from({ length: n }, (_, i) => {
                  const c = r.rounds?.[i];
                  const col = colourLetter(c?.colour);
                  return (
                    <td key={i} class={col === 'r' ? 'red-cell' : col === 'b' ? 'black-cell' : ''}>
                      <span aria-hidden="true">{crossCellText(c, numberOf, hasResult(ev, i + 1, r.player))}</span>
                      <span class="sr-only">{crossCellWords(c, numberOf, hasResult(ev, i + 1, r.player))}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted small" id="crosstable-help">{t('crosstableHelp')}</p>
    </section>
  );
}

// Players never to be paired together (club-mates, family): POST /forbid by their user ids,
// from the next round paired on. The pairs already kept apart are listed by name.
function KeepApart({ ev, busy, act }: { ev: EventDetail; busy: boolean; act: (path: string, body?: unknown) => void }) {
  // By name (not in the order they registered): the organiser looks for two people they know.
  const players = sortedByName(ev.players.map((p, i) => ({ ...p, i })).filter((p) => p.user_id && !p.withdrawn_round && !p.disqualified));
  const [a, setA] = useState('');
  const [b, setB] = useState('');
  const first = a || players[0]?.user_id || '';
  const second = b || players.find((p) => p.user_id !== first)?.user_id || '';
  const pairs = ev.config.pairing?.forbidden ?? [];
  const choose = (value: string, set: (v: string) => void, testid: string) => (
    <select data-testid={testid} value={value} onChange={(e) => set(e.currentTarget.value)}>
      {players.map((p) => <option value={p.user_id}>{p.number ? `${p.number}. ` : ''}{p.name}</option>)}
    </select>
  );
  return (
    <form
      class="keep-apart"
      data-testid="keep-apart"
      onSubmit={(e) => {
        e.preventDefault();
        // No control takes a pair off again once the event runs: asked first.
        const name = (id: string) => players.find((p) => p.user_id === id)?.name ?? id;
        if (first && second && first !== second && window.confirm(t('confirmKeepApart', { a: name(first), b: name(second) }))) {
          act('forbid', { pairs: [[first, second]] });
        }
      }}
    >
      <label>{t('keepApart')}</label>
      <div class="row">
        {choose(first, setA, 'keep-apart-a')}
        {choose(second, setB, 'keep-apart-b')}
        <button data-testid="keep-apart-save" disabled={busy || !first || first === second}>{t('keepApartSave')}</button>
      </div>
      {pairs.length > 0 && (
        <p class="muted small" data-testid="kept-apart">
          {t('keptApart')}{t('resultSep')}{pairs.map(([x, y]) => `${playerName(ev, x)} – ${playerName(ev, y)}`).join(t('clauseSep'))}
        </p>
      )}
    </form>
  );
}

function OrganiserControls({ ev, busy, act, app, saveSettings }: {
  ev: EventDetail;
  busy: boolean;
  act: (path: string, body?: unknown, organiser?: boolean, errorText?: (e: unknown) => string | undefined) => void;
  app: App;
  saveSettings: (body: Record<string, unknown>) => Promise<boolean>;
}) {
  const paired = ev.rounds.length;
  const last = ev.rounds[paired - 1];
  const unstarted = last ? last.started === false || (last.started === undefined && paired > (ev.rounds_started ?? paired)) : false;
  const [boards, setBoards] = useState('');
  const [editErr, setEditErr] = useState('');
  // Swiss games in round, board and game order (the API lists them as they were created, so a
  // two-game match's game 2 comes after every board's game 1).
  const swissGames = ev.games.filter((g) => g.board >= 0 && !g.knockout).sort((a, b) => a.round - b.round || a.board - b.board || a.index - b.index);
  const finished = swissGames.filter((g) => g.finished);  // play-off results are not corrected
  const [gameId, setGameId] = useState('');
  const [redPts, setRedPts] = useState(0);
  const [blackPts, setBlackPts] = useState(0);
  const running = ev.stage === 'running';
  // A round is being played while any game of it has no result: the next round waits for it.
  const roundInProgress = ev.games.some((g) => !g.finished && g.board >= 0);
  // A paused event whose next round is not paired (the engine found no legal pairing and paused
  // it, or the organiser paused between rounds): the organiser pairs that round by hand; the
  // server takes /edit-pairing for it. The box starts from the players still in, in number order.
  // Without automatic rounds the event does not pause: a "Pair next round" refused for want of a
  // legal pairing opens the same box (until the round is paired).
  const [pairFailedAt, setPairFailedAt] = useState(-1);
  const byHand = !unstarted && (ev.stage === 'paused' || (running && pairFailedAt === paired)) && !roundInProgress &&
    paired < (ev.config.pairing?.rounds ?? 0);
  const editRound = unstarted ? paired : byHand ? paired + 1 : 0;
  const lastBoards = unstarted && last ? pairingText(last.boards, ev.players) : byHand ? pairingText(proposedBoards(ev, paired + 1), ev.players) : '';
  // What the organiser typed is dropped once the pairing it was typed over changes (saved,
  // re-paired, edited in another tab): the box then shows the round as it now stands.
  useEffect(() => setBoards(''), [lastBoards]);
  const correctId = gameId || finished[0]?.game_id || '';
  const correcting = finished.find((g) => g.game_id === correctId);
  // The form starts from the game's current result, so saving it unchanged changes nothing.
  useEffect(() => {
    if (!correcting) return;
    setRedPts(correcting.red_points ?? 0);
    setBlackPts(correcting.black_points ?? 0);
  }, [correctId, correcting?.red_points, correcting?.black_points]);
  // A foul (犯规) is recorded against a side of a Swiss game, running or finished (POST /foul): the
  // regulations count them in the standings and make the second one in a game a loss.
  const foulable = swissGames.filter((g) => g.game_id);
  const [foulGame, setFoulGame] = useState('');
  const [foulSide, setFoulSide] = useState<'red' | 'black'>('red');
  // Default: a game being played (the arbiter is at that board), else the latest one.
  const foulId = foulable.some((g) => g.game_id === foulGame) ? foulGame : (foulable.find((g) => !g.finished) ?? foulable[foulable.length - 1])?.game_id ?? '';
  const fouling = foulable.find((g) => g.game_id === foulId);
  // A game being played may be decided by the organiser (a second foul, a phone at the board):
  // POST /adjudicate ends it on its node with the result and reason given.
  // In round and board order, as the arbiter walks the hall (the API lists them as created).
  const playing = byRoundAndBoard(ev.games.filter((g) => g.game_id && !g.finished));
  const [adjGame, setAdjGame] = useState('');
  const [adjOutcome, setAdjOutcome] = useState<'red-wins' | 'black-wins' | 'draw'>('red-wins');
  const [adjReason, setAdjReason] = useState('');
  const adjId = playing.some((g) => g.game_id === adjGame) ? adjGame : playing[0]?.game_id ?? '';
  const adjudicating = playing.find((g) => g.game_id === adjId);
  const pts = ev.config.pairing ?? { win_points: 2, draw_points: 1, loss_points: 0 };
  // A two-game match's games have the same board: the label names the game (G1, G2).
  const twoGames = (ev.config.pairing?.games_per_round ?? 1) > 1;
  // "R3·5 G1 A–B" (Chinese 第3轮第5台 第1局 张三–李四); a play-off game by its name.
  const gameLabel = (g: GameSlot) => {
    const where = g.board >= 0 ? t('roundBoardShort', { r: g.round, b: g.board + 1 }) : t('roundKnockoutShort', { r: g.round, ko: knockoutName(g.knockout ?? '') });
    return `${where}${twoGames && g.board >= 0 ? ` ${t('gameN', { n: g.index + 1 })}` : ''} ${playerName(ev, g.red)}–${playerName(ev, g.black)}`;
  };

  return (
    <section class="panel organiser" data-testid="organiser">
      <h3>{t('organiser')}</h3>
      <div class="actions">
        {ev.stage === 'registration' && (
          // Asked first, as the other steps that cannot be taken back are: starting draws the
          // numbers and pairs round 1 (and with automatic rounds starts its games).
          <button class="primary" data-testid="start-event" disabled={busy} onClick={() => {
            if (window.confirm(t(ev.config.auto_rounds === false ? 'confirmStartEventManual' : 'confirmStartEvent', { n: ev.players.length }))) act('start');
          }}>{t('startEvent')}</button>
        )}
        {(running || ev.stage === 'paused') && (
          <>
            <button data-testid="pair-round" disabled={busy || unstarted || roundInProgress} onClick={() => act('pair', undefined, false, (e) => {
              if (e instanceof ApiError && e.code === 'pairing_failed') setPairFailedAt(paired);
              return undefined;
            })}>{t('pairNextRound')}</button>
            {/* Games once created are played: the pairing cannot be changed after. A re-pair
                throws away the pairing shown and any edits to it. */}
            <button data-testid="start-round" disabled={busy || !roundToStart(ev) || !running} onClick={() => {
              if (window.confirm(unstarted ? t('confirmStartRound', { n: paired }) : t('confirmStartPlayoff'))) act('start-round');
            }}>{t('startRound')}</button>
            <button data-testid="repair" disabled={busy || !unstarted} onClick={() => {
              if (window.confirm(t('confirmRepair', { n: paired }))) act('repair');
            }}>{t('repair')}</button>
          </>
        )}
        {running && (
          <button data-testid="pause" disabled={busy} onClick={() => {
            const reason = window.prompt(t('pauseAsk')); // told to the players on the event page
            if (reason !== null) act('pause', reason.trim() ? { reason: reason.trim() } : {});
          }}>{t('pause')}</button>
        )}
        {ev.stage === 'paused' && <button data-testid="resume" disabled={busy} onClick={() => act('resume')}>{t('resume')}</button>}
        {(ev.stage === 'registration' || running || ev.stage === 'paused') && (
          <button class="danger" data-testid="cancel-event" disabled={busy} onClick={() => {
            // The reason is told to the players; cancelling cannot be undone.
            const reason = window.prompt(t('cancelEventAsk'));
            if (reason !== null) act('cancel', reason.trim() ? { reason: reason.trim() } : {});
          }}>{t('cancelEvent')}</button>
        )}
      </div>
      {running && <p class="muted small" data-testid="pause-help">{t('pauseHelp')}</p>}
      {(ev.stage === 'registration' || running || ev.stage === 'paused') && ev.players.length >= 2 && (
        <KeepApart ev={ev} busy={busy} act={act} />
      )}
      {(ev.stage === 'registration' || running || ev.stage === 'paused') && (
        // A wrong time control or one round too many is corrected here, not by cancelling the
        // event and losing its entries. Keyed by stage: the fields shown change when it starts.
        <details class="wide" data-testid="event-settings">
          <summary>{t('eventSettings')}</summary>
          <EventForm key={ev.stage} app={app} editing={ev} onSave={saveSettings} />
        </details>
      )}
      {roundInProgress && !unstarted && (running || ev.stage === 'paused') && (
        <p class="muted small" data-testid="round-in-progress">{t('roundInProgress', { n: ev.rounds_started ?? paired })}</p>
      )}
      {editRound > 0 && (
        <form
          class="edit-pairing"
          onSubmit={(e) => {
            e.preventDefault();
            setEditErr('');
            try {
              act('edit-pairing', { boards: pairsFromNumbers(boards || lastBoards, ev.players) });
            } catch (err) {
              setEditErr(t('badPairs', { text: (err as Error).message }));
            }
          }}
        >
          <label>
            {t('editPairing', { n: editRound })}
            <input data-testid="edit-boards" {...errorProps('edit-pairing-error', !!editErr)} value={boards || lastBoards} onInput={(e) => setBoards(e.currentTarget.value)} />
          </label>
          <p class="muted small">{t('editPairingHelp')}</p>
          {byHand && <p class="muted small" data-testid="pair-by-hand">{t('pairByHandHelp', { n: editRound })}</p>}
          {byHand && (
            // The engine's way out: the fewest rematches, each named in the answer's warnings.
            <button type="button" data-testid="pair-rematches" disabled={busy} onClick={() => act('pair', { allow_rematches: true })}>
              {t('pairFewestRematches')}
            </button>
          )}
          <p class="muted small" data-testid="pairing-numbers">{byNumber(ev).map(([p, i]) => `${p.number ?? i + 1}=${p.name}`).join(' · ')}</p>
          <button data-testid="save-pairing" disabled={busy}>{t('savePairing')}</button>
          {editErr && <p class="error" role="alert" id="edit-pairing-error">{editErr}</p>}
        </form>
      )}
      {finished.length > 0 && (
        <form
          class="correct"
          onSubmit={(e) => {
            e.preventDefault();
            if (!correcting) return;
            if (redPts === correcting.red_points && blackPts === correcting.black_points) {
              window.alert(t('sameResult'));
              return;
            }
            const both = redPts === pts.loss_points && blackPts === pts.loss_points && pts.loss_points !== pts.draw_points;
            const ask = t(both ? 'confirmDoubleForfeit' : 'confirmCorrection', { game: gameLabel(correcting), red: redPts, black: blackPts });
            if (window.confirm(ask)) act('correct', { game_id: correctId, red_points: redPts, black_points: blackPts });
          }}
        >
          <label>
            {t('correctResult')}
            <select data-testid="correct-game" value={correctId} onChange={(e) => setGameId(e.currentTarget.value)}>
              {finished.map((g) => (
                <option key={g.game_id} value={g.game_id}>
                  {gameLabel(g)} {g.red_points}:{g.black_points}
                </option>
              ))}
            </select>
          </label>
          <div class="row">
            <label class="inline">
              {t('red')}
              <select data-testid="correct-red" value={redPts} onChange={(e) => setRedPts(Number(e.currentTarget.value))}>
                {[...new Set([pts.win_points, pts.draw_points, pts.loss_points])].map((v) => <option value={v}>{v}</option>)}
              </select>
            </label>
            <label class="inline">
              {t('black')}
              <select data-testid="correct-black" value={blackPts} onChange={(e) => setBlackPts(Number(e.currentTarget.value))}>
                {[...new Set([pts.win_points, pts.draw_points, pts.loss_points])].map((v) => <option value={v}>{v}</option>)}
              </select>
            </label>
            <button data-testid="correct-save" disabled={busy || !correctId}>{t('save')}</button>
          </div>
        </form>
      )}
      {foulable.length > 0 && (
        <form
          class="foul"
          data-testid="foul-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!fouling) return;
            const player = playerName(ev, foulSide === 'red' ? fouling.red : fouling.black);
            if (window.confirm(t('confirmFoul', { player, side: t(foulSide), game: gameLabel(fouling) }))) act('foul', { game_id: foulId, side: foulSide });
          }}
        >
          <label>
            {zhParts(t('recordFoul'))}
            <select data-testid="foul-game" value={foulId} onChange={(e) => setFoulGame(e.currentTarget.value)}>
              {foulable.map((g) => (
                <option key={g.game_id} value={g.game_id}>
                  {gameLabel(g)}{g.finished ? ` ${g.red_points}:${g.black_points}` : paren(t('inProgress'))}
                </option>
              ))}
            </select>
          </label>
          <div class="row">
            <label class="inline">
              {t('foulAgainst')}
              <select data-testid="foul-side" value={foulSide} onChange={(e) => setFoulSide(e.currentTarget.value as 'red' | 'black')}>
                <option value="red">{t('red')}{fouling ? ` ${playerName(ev, fouling.red)}` : ''}</option>
                <option value="black">{t('black')}{fouling ? ` ${playerName(ev, fouling.black)}` : ''}</option>
              </select>
            </label>
            <button data-testid="foul-save" disabled={busy || !foulId}>{t('recordFoulButton')}</button>
          </div>
          <p class="muted small">{t('foulHelp')}</p>
        </form>
      )}
      {playing.length > 0 && (
        <form
          class="adjudicate"
          data-testid="adjudicate-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!adjudicating) return;
            const result = adjOutcome === 'draw' ? t('draw') : adjOutcome === 'red-wins' ? t('redWins') : t('blackWins');
            if (window.confirm(t('confirmAdjudicate', { game: gameLabel(adjudicating), result })))
              act('adjudicate', { game_id: adjId, outcome: adjOutcome, reason: adjReason.trim() });
          }}
        >
          <label>
            {t('adjudicateGame')}
            <select data-testid="adjudicate-game" value={adjId} onChange={(e) => setAdjGame(e.currentTarget.value)}>
              {playing.map((g) => (
                <option key={g.game_id} value={g.game_id}>{gameLabel(g)}</option>
              ))}
            </select>
          </label>
          <div class="row">
            <select data-testid="adjudicate-outcome" value={adjOutcome} onChange={(e) => setAdjOutcome(e.currentTarget.value as 'red-wins' | 'black-wins' | 'draw')}>
              <option value="red-wins">{t('redWins')}{adjudicating ? paren(playerName(ev, adjudicating.red)) : ''}</option>
              <option value="black-wins">{t('blackWins')}{adjudicating ? paren(playerName(ev, adjudicating.black)) : ''}</option>
              <option value="draw">{t('draw')}</option>
            </select>
            <input data-testid="adjudicate-reason" maxLength={200} placeholder={t('adjudicateReason')} value={adjReason}
                   onInput={(e) => setAdjReason(e.currentTarget.value)} />
            <button data-testid="adjudicate-save" disabled={busy || !adjId}>{t('adjudicateButton')}</button>
          </div>
          <p class="muted small" data-testid="adjudicate-help">{zhParts(t('adjudicateHelp'))}</p>
        </form>
      )}
    </section>
  );
}

// Round `round`'s players (not withdrawn by then, not out at the forfeit limit) in pairing-number
// order, as 1-2, 3-4 …, a last odd one with the bye: a starting point for a pairing by hand.
function proposedBoards(ev: EventDetail, round: number): { a: number; b: number }[] {
  const inRound = byNumber(ev)
    .filter(([p]) => !(p.withdrawn_round && p.withdrawn_round <= round) && !(p.removed_after_round && p.removed_after_round < round))
    .map(([, i]) => i);
  const out: { a: number; b: number }[] = [];
  for (let i = 0; i < inRound.length; i += 2) out.push({ a: inRound[i], b: i + 1 < inRound.length ? inRound[i + 1] : BYE });
  return out;
}

// Lobby: open seeks (accept / cancel own), quick-pairing pools, create a seek or a direct challenge,
// live games to watch.
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import { captureVisibilityText, errorText, t, useLang } from '../i18n';
import { Disconnected } from '../net/connection';
import { ErrorCode, Side, Variant, type GameSummary, type Seek } from '../net/proto';
import { DEFAULT_RULE_OPTIONS, ruleOptions, ruleOptionTags } from '../game/rule_options';
import { eventIdOfGame } from '../tournament/logic';
import { RULESETS, tcText } from './format';
import { PoolPanel } from './PoolPanel';
import { openTwin } from '../lobby/seek_match';
import { peopleFirst } from '../lobby/seek_order';
import { RuleOptionsFields } from './RuleOptionsFields';
import { errorProps } from './form_validity';
import { zhParts } from './lang';

const POLL_MS = 2000;

export function LobbyPage({ app }: { app: App }) {
  useLang();
  const [seeks, setSeeksOnly] = useState<Seek[]>([]);
  const [seekTotal, setSeekTotal] = useState(0); // the server lists at most 200 (yours first)
  const setSeeks = (list: { seeks?: unknown[] | null; total?: number | null } | null | undefined) => {
    const shown = (list?.seeks ?? []) as Seek[];
    setSeeksOnly(shown);
    setSeekTotal(Math.max(list?.total ?? 0, shown.length));
  };
  const [games, setGames] = useState<GameSummary[]>([]);
  const [gameTotal, setGameTotal] = useState(0);
  // A refused action, kept as the error itself (code and message) and worded at each render, so a
  // language switch re-words it. `link`: it failed for want of a connection, so it goes once the
  // link is back.
  // `field`: the seek form's field it is about, if any (marked invalid, described by the message).
  const [error, setError] = useState<{ err: unknown; link: boolean; field?: SeekField | null } | null>(null);
  const [twin, setTwin] = useState<string | null>(null); // the open seek a new one would repeat
  const [gameId, setGameId] = useState('');

  useEffect(() => {
    let live = true;
    const refresh = async () => {
      if (app.conn.status !== 'open') return;
      try {
        const [s, g] = await Promise.all([app.conn.request({ listSeeks: {} }), app.conn.request({ listGames: {} })]);
        if (!live) return;
        setSeeks(s.seeks);
        setGames((g.games?.games ?? []) as GameSummary[]);
        setGameTotal(g.games?.total ?? 0);
      } catch {
        /* shown by the link banner; the next poll retries */
      }
    };
    // Pushed lists (if the server sends them) update at once; polling covers the rest.
    const off = app.conn.onMessage((m) => {
      if (m.body === 'seeks' && m.seeks) setSeeks(m.seeks);
      if (m.body === 'games' && m.games) {
        setGames(m.games.games as GameSummary[]);
        setGameTotal(m.games.total ?? 0);
      }
    });
    void refresh();
    const timer = window.setInterval(refresh, POLL_MS);
    const offReady = app.conn.onReady(() => {
      setError((e) => (e?.link ? null : e));
      void refresh();
    });
    return () => {
      live = false;
      off();
      offReady();
      window.clearInterval(timer);
    };
  }, [app]);

  const me = app.user?.userId;
  const act = async (body: Parameters<App['conn']['request']>[0]) => {
    setError(null);
    setTwin(null);
    const same = body.createSeek && openTwin(body.createSeek, seeks, me);
    if (same) return setTwin(same.seekId);
    try {
      const r = await app.conn.request(body);
      if (body.createSeek && r.reply?.seekId) app.seekCreated(r.reply.seekId, body.createSeek);
      if (body.cancelSeek?.seekId) app.seekGone(body.cancelSeek.seekId);
      if (r.reply?.gameId && body.acceptSeek) app.navigate(`#/game/${encodeURIComponent(r.reply.gameId)}`);
      const s = await app.conn.request({ listSeeks: {} });
      setSeeks(s.seeks);
    } catch (e) {
      setError({ err: e, link: e instanceof Disconnected, field: seekFieldOf(body, e) });
    }
  };

  // The operator's computer players keep seeks open (clients/bot): offered first, one click each,
  // one row per computer (an operator may run several, e.g. of different strength).
  const botSeeks = seeks.filter((s) => s.owner?.bot && s.owner.userId !== me && !s.targetUserId);
  const bots = new Map<string, typeof botSeeks>();
  for (const s of botSeeks) bots.set(s.owner!.userId, [...(bots.get(s.owner!.userId) ?? []), s]);
  const botRows = [...bots.values()].sort((a, b) => a[0].owner!.name.localeCompare(b[0].owner!.name));
  const gameOrder = (s: (typeof botSeeks)[number]) => (s.variant === Variant.JIEQI ? 1e12 : 0) + (s.timeControl?.initialMs ?? 0);
  for (const row of botRows) row.sort((a, b) => gameOrder(a) - gameOrder(b));  // Xiangqi first, then by time

  return (
    <div class={`lobby${error ? ' has-note' : ''}`}>
      {botSeeks.length > 0 && (
        <section class="panel" data-testid="play-computer">
          <h2>{t('playComputer')}</h2>
          <p class="muted small">{t('playComputerHint')}</p>
          {botRows.map((row) => (
            <div class="row bot-row" data-testid="play-computer-bot" data-bot={row[0].owner!.name} key={row[0].owner!.userId}>
              <span class="bot-name">{row[0].owner!.name}</span>
              <span class="bot-games">
              {row.map((s) => (
                <button class="primary" data-testid="play-computer-seek" data-variant={s.variant === Variant.JIEQI ? 'jieqi' : 'xiangqi'}
                  key={s.seekId} onClick={() => void act({ acceptSeek: { seekId: s.seekId } })}>
                  {zhParts(s.variant === Variant.JIEQI ? t('jieqi') : t('xiangqi'))} {tcText(s.timeControl)}
                  {s.owner?.rating ? <span class="muted small" data-testid="play-computer-rating"> · {t('rating')} {s.owner.rating}</span> : null}
                </button>
              ))}
              </span>
            </div>
          ))}
        </section>
      )}
      <section class="panel">
        <h2>{t('openSeeks')}</h2>
        {seeks.length === 0 && <p class="muted">{t('noSeeks')}</p>}
        {seekTotal > seeks.length && (
          <p class="muted small" data-testid="seek-list-more">{t('seeksShownOf', { n: String(seeks.length), total: String(seekTotal) })}</p>
        )}
        <ul class="list seek-list" data-testid="seek-list">
          {peopleFirst(seeks).map((s) => {
            const mine = s.owner?.userId === me;
            return (
              <li key={s.seekId} data-seek={s.seekId} data-variant={s.variant === Variant.JIEQI ? 'jieqi' : 'xiangqi'}
                class={`${mine ? 'mine' : ''}${s.seekId === twin ? ' twin' : ''}`}>
                <span class="who">{s.owner?.name}</span>
                {!!s.owner?.rating && <span class="muted small" data-testid="seek-rating">({s.owner.rating})</span>}
                {s.owner?.bot && <span class="tag" data-testid="seek-bot-tag">{t('computer')}</span>}
                <span class="tag">{zhParts(s.variant === Variant.JIEQI ? t('jieqi') : t('xiangqi'))}</span>
                {s.variant === Variant.JIEQI && (
                  <span class="tag" data-testid="seek-capture-visibility-tag">{captureVisibilityText(s.captureVisibility)}</span>
                )}
                <span class="tag">{tcText(s.timeControl)}</span>
                <span class="tag">{seekColorText(s.color, mine)}</span>
                <span class="tag" data-testid="seek-rated-tag" data-rated={s.rated ? '1' : '0'}>{s.rated ? t('rated') : t('casual')}</span>
                {(s.ratingMin || s.ratingMax) ? (
                  <span class="tag" data-testid="seek-rating-range" title={t('ratingRangeTitle')}>{ratingRangeText(s.ratingMin, s.ratingMax)}</span>
                ) : null}
                {s.targetUserId && <span class="tag" data-testid="seek-challenge-tag">{mine ? t('directChallenge') : t('challengeToYou')}</span>}
                {ruleOptionTags(s.ruleOptions).map((tag) => (
                  <span class="tag" data-testid="seek-rule-option">{tag}</span>
                ))}
                {mine ? (
                  <>
                    <span class="muted">{t('waitingForOpponent')}</span>
                    <button onClick={() => void act({ cancelSeek: { seekId: s.seekId } })}>{t('cancel')}</button>
                  </>
                ) : (
                  <button class="primary" data-testid="accept-seek" aria-label={t('acceptSeekOf', { name: s.owner?.name ?? '' })} onClick={() => void act({ acceptSeek: { seekId: s.seekId } })}>
                    {t('accept')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      <PoolPanel app={app} />
      <SeekForm onSubmit={(body) => void act(body)} invalid={error?.field ?? null} />
      <section class="panel live-games">
        <h2>{t('liveGames')}</h2>
        {games.length === 0 && <p class="muted">{t('noGames')}</p>}
        {gameTotal > games.length && (
          <p class="muted" data-testid="games-shown">
            {t('gamesShown', { shown: games.length, total: gameTotal })}
          </p>
        )}
        <ul class="list" data-testid="game-list">
          {games.map((g) => (
            <li key={g.gameId} data-game={g.gameId}>
              <span class="who">
                {g.red?.name} {t('vs')} {g.black?.name}
              </span>
              <span class="tag">{zhParts(g.variant === Variant.JIEQI ? t('jieqi') : t('xiangqi'))}</span>
              <span class="tag">{tcText(g.timeControl)}</span>
              {eventIdOfGame(g.gameId) && <span class="tag" data-testid="tournament-game">{t('tournamentTag')}</span>}
              <span class="muted">{t('moveNo', { n: Math.floor(g.plies / 2) + 1 })}</span>
              {(g.spectators ?? 0) > 0 && (
                <span class="muted" data-testid="game-spectators">{t('watching', { n: g.spectators })}</span>
              )}
              {/* A game of one's own (left for the lobby, or signed in on a second device): back to it. */}
              {me && (g.red?.userId === me || g.black?.userId === me) ? (
                <a class="button primary" data-testid="return-to-game" href={`#/game/${encodeURIComponent(g.gameId)}`}>{t('returnToGame')}</a>
              ) : (
                <a class="button" data-testid="watch-game" href={`#/game/${encodeURIComponent(g.gameId)}`}
                   aria-label={t('watchGameOf', { red: g.red?.name ?? '', black: g.black?.name ?? '' })}>{t('watch')}</a>
              )}
            </li>
          ))}
        </ul>
        <form
          class="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (gameId.trim()) app.navigate(`#/game/${encodeURIComponent(gameId.trim())}`);
          }}
        >
          <input aria-label={t('openGame')} placeholder={t('openGame')} value={gameId} onInput={(e) => setGameId(e.currentTarget.value)} />
          <button>{t('go')}</button>
        </form>
      </section>
      {/* Fixed at the bottom of the screen: on a phone the button pressed may be far from the end of
          the page, where a message would be out of view. */}
      {twin && !error && (
        <div class="action-note" role="status" data-testid="lobby-note">
          <span>{t('seekAlreadyOpen')}</span>
          <button class="link" aria-label={t('close')} onClick={() => setTwin(null)}>×</button>
        </div>
      )}
      {error && (
        <div class="action-note error" role="alert" id={LOBBY_ERROR_ID} data-testid="lobby-error">
          <span>{errorText(error.err)}</span>
          <button class="link" data-testid="lobby-error-close" aria-label={t('close')} onClick={() => setError(null)}>×</button>
        </div>
      )}
    </div>
  );
}

// A seek's rating range, "1600–", "–1800" or "1400–1800" (0 = no bound): a taker outside it is refused.
export function ratingRangeText(min: number | null | undefined, max: number | null | undefined): string {
  return `${min || ''}–${max || ''}`;
}

// The seek's colour as the reader would play it: the owner's own colour, or the other one.
function seekColorText(color: number, mine: boolean): string {
  if (color !== Side.RED && color !== Side.BLACK) return t('random');
  const ownerRed = color === Side.RED;
  const side = ownerRed === mine ? t('red') : t('black');
  return mine ? side : t('youPlay', { side });
}

// The seek form's fields a refusal of the server may be about (its words: hub_seeks.cpp).
type SeekField = 'minutes' | 'rated' | 'opponent' | 'ratingRange';
const LOBBY_ERROR_ID = 'lobby-error';
function seekFieldOf(body: Parameters<App['conn']['request']>[0], e: unknown): SeekField | null {
  if (!body.createSeek && !body.challenge) return null;
  const { code, message = '' } = e as { code?: number; message?: string };
  if (/^rated games need an account: register or log in/.test(message)) return 'rated';
  if (/^time control: /.test(message)) return 'minutes';
  if (/^rating range: /.test(message)) return 'ratingRange';
  if (body.challenge && (code === ErrorCode.USER_NOT_ONLINE || /^(user_name: |you cannot challenge yourself|rated games need an account: .+ is a guest)/.test(message)))
    return 'opponent';
  return null;
}

function SeekForm({ onSubmit, invalid }: { onSubmit: (body: Parameters<App['conn']['request']>[0]) => void; invalid: SeekField | null }) {
  const errorOf = (f: SeekField) => errorProps(LOBBY_ERROR_ID, invalid === f);
  const [variant, setVariant] = useState<number>(Variant.XIANGQI);
  const [minutes, setMinutes] = useState(10);
  const [inc, setInc] = useState(5);
  const [color, setColor] = useState<number>(Side.SIDE_NONE);
  const [ruleset, setRuleset] = useState('cxa');
  const [captureVisibility, setCaptureVisibility] = useState('capturer');
  const [rated, setRated] = useState(false);
  // The taker's rating range of a rated seek, blank = no bound (the server takes 0 for none).
  const [ratingMin, setRatingMin] = useState('');
  const [ratingMax, setRatingMax] = useState('');
  const [rules, setRules] = useState(DEFAULT_RULE_OPTIONS);
  const [opponent, setOpponent] = useState('');
  const spec = () => ({
    variant,
    timeControl: { initialMs: Math.round(minutes * 60_000), incrementMs: Math.round(inc * 1000) },
    color,
    ruleset,
    rated,
    ...(rated ? { ratingMin: Number(ratingMin) || 0, ratingMax: Number(ratingMax) || 0 } : {}),
    ruleOptions: ruleOptions(rules, variant === Variant.JIEQI),
    ...(variant === Variant.JIEQI ? { captureVisibility } : {}),
  });
  return (
    <section class="panel">
      <h2>{t('createSeek')}</h2>
      <form
        class="seek-form"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit({ createSeek: spec() });
        }}
      >
        <label>
          {t('variant')}
          <select data-testid="seek-variant" value={variant} onChange={(e) => setVariant(Number(e.currentTarget.value))}>
            <option value={Variant.XIANGQI}>{t('xiangqi')}</option>
            <option value={Variant.JIEQI}>{t('jieqi')}</option>
          </select>
        </label>
        <label>
          {t('minutes')}
          <input data-testid="seek-minutes" {...errorOf('minutes')} type="number" min="0.05" max="360" step="any" value={minutes} onInput={(e) => setMinutes(Number(e.currentTarget.value))} />
        </label>
        <label>
          {t('increment')}
          <input type="number" min="0" max="120" value={inc} onInput={(e) => setInc(Number(e.currentTarget.value))} />
        </label>
        <label>
          {t('color')}
          <select data-testid="seek-color" value={color} onChange={(e) => setColor(Number(e.currentTarget.value))}>
            <option value={Side.SIDE_NONE}>{t('random')}</option>
            <option value={Side.RED}>{t('red')}</option>
            <option value={Side.BLACK}>{t('black')}</option>
          </select>
        </label>
        <label>
          {t('ruleset')}
          <select value={ruleset} onChange={(e) => setRuleset(e.currentTarget.value)}>
            {RULESETS.map(([value, key]) => <option value={value}>{t(key)}</option>)}
          </select>
        </label>
        {/* Jieqi: who learns what a captured face-down piece was (jieqi-rules.md §5). */}
        {variant === Variant.JIEQI && (
          <label>
            {t('captureVisibility')}
            <select data-testid="seek-capture-visibility" value={captureVisibility} onChange={(e) => setCaptureVisibility(e.currentTarget.value)}>
              <option value="capturer">{t('cv.capturer')}</option>
              <option value="nobody">{t('cv.nobody')}</option>
              <option value="both">{t('cv.both')}</option>
            </select>
          </label>
        )}
        <details class="row rule-options" data-testid="seek-rule-options">
          <summary>{t('ruleOptions')}</summary>
          <div class="seek-form">
            <RuleOptionsFields value={rules} onChange={setRules} jieqi={variant === Variant.JIEQI} testid="seek" />
          </div>
        </details>
        <label class="check">
          <input data-testid="seek-rated" {...errorOf('rated')} type="checkbox" checked={rated} onChange={(e) => setRated(e.currentTarget.checked)} />
          {t('ratedSeek')}
        </label>
        {rated && (
          <>
            <label>
              {t('ratingMin')}
              <input data-testid="seek-rating-min" {...errorOf('ratingRange')} type="number" min="0" max="4000" step="1" placeholder={t('anyRating')}
                value={ratingMin} onInput={(e) => setRatingMin(e.currentTarget.value)} />
            </label>
            <label>
              {t('ratingMax')}
              <input data-testid="seek-rating-max" {...errorOf('ratingRange')} type="number" min="0" max="4000" step="1" placeholder={t('anyRating')}
                value={ratingMax} onInput={(e) => setRatingMax(e.currentTarget.value)} />
            </label>
          </>
        )}
        <div class="row seek-submit">
          <button class="primary" data-testid="create-seek">{t('createSeek')}</button>
        </div>
      </form>
      {/* A form of its own: Enter in the name field must challenge that user, not submit the seek
          form above (which would open a seek anyone can take). */}
      <form
        class="row"
        data-testid="challenge-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (opponent.trim()) onSubmit({ challenge: { userName: opponent.trim(), ...spec() } });
        }}
      >
        <input data-testid="challenge-name" {...errorOf('opponent')} aria-label={t('challengeUser')} placeholder={t('challengeUser')} value={opponent} onInput={(e) => setOpponent(e.currentTarget.value)} />
        <button data-testid="challenge" disabled={!opponent.trim()}>
          {t('challenge')}
        </button>
      </form>
    </section>
  );
}

// Page frame: header with navigation, language toggle and the user; the link state banner; the
// "your game is ready" offer; a direct challenge to us (wherever we are); the page.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app';
import { errorText, paren, setLang, t, useLang } from '../i18n';
import { Side, Variant } from '../net/proto';
import { useObservable } from '../store';
import { tcText } from './format';
import { FirstMoveDue, GamePage } from './GamePage';
import { LobbyPage } from './LobbyPage';
import { AdminPage } from './AdminPage';
import { AnalysisPage } from './AnalysisPage';
import { EventPage } from './EventPage';
import { TournamentsPage } from './TournamentsPage';
import { ClubPage, ClubsPage } from './ClubsPage';
import { LeaderboardPage } from './LeaderboardPage';
import { PlayerPage } from './PlayerPage';
import { setSoundOn, soundOn } from './alerts';
import { SignIn } from './SignIn';
import { focusLost, focusPageHeading, pageTitle } from './page';
import { ZH, zhParts } from './lang';

function readableSignedOut(r: App['route']): boolean {
  return (r.page === 'tournaments' && !!r.id) || (r.page === 'player' && !!r.id) || r.page === 'leaderboard';
}

export function Shell({ app }: { app: App }) {
  useObservable(app);
  const l = useLang();
  const user = app.user;
  const r = app.route;
  const challenge = app.challengeToShow;
  const readyModel = app.readyGame ? app.openGame(app.readyGame.gameId) : undefined;
  // On a phone the header is one line, its links behind a Menu button (the full header took three
  // lines, pushing the page's content, on the game page the status and buttons, below the screen).
  // Keyed by the page, so that following a link closes it.
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const routeKey = `${r.page}/${'id' in r ? r.id ?? '' : ''}`;
  const menuOpen = menuFor === routeKey;
  const menuButton = useRef<HTMLButtonElement>(null);
  // The Admin link only for those who can use the page: an organiser or admin account, or a tab
  // holding the admin token (or on the page already). #/admin itself opens for anyone, by its URL.
  const role = user ? app.conn.role : 'player';
  const showAdmin = role === 'admin' || role === 'organiser' || !!app.adminToken || r.page === 'admin';
  const name = pageName(app);
  usePageChange(app, name);
  let page;
  // The admin dashboard needs the admin token, not a player session.
  if (r.page === 'admin') page = <AdminPage app={app} />;
  // The analysis board needs no server at all: open to anyone, signed in or not.
  else if (r.page === 'analysis') page = <AnalysisPage key={r.fen ?? ''} app={app} fen={r.fen} />;
  // What the public API shows is readable signed out too (a shared link to an event's standings,
  // a player's games, the leaderboard), with the sign-in above it: signing in keeps the page.
  else if (!user && readableSignedOut(r)) {
    const signIn = app.link === 'open' || !app.conn.token ? <SignIn app={app} /> : <p class="muted">{t('connecting')}</p>;
    page = (
      <>
        {signIn}
        {r.page === 'tournaments' && r.id && <EventPage key={r.id} app={app} id={r.id} />}
        {r.page === 'player' && r.id && <PlayerPage key={r.id} app={app} id={r.id} />}
        {r.page === 'leaderboard' && <LeaderboardPage app={app} variant={r.variant} />}
      </>
    );
  }
  // A game's link signed out: a finished game's public record, read-only, under the sign-in; a
  // game still played needs the socket (a session) to be watched, and says so.
  else if (!user && r.page === 'game') {
    const signIn = app.link === 'open' || !app.conn.token ? <SignIn app={app} /> : <p class="muted">{t('connecting')}</p>;
    page = (
      <>
        {signIn}
        {!app.conn.token && <PublicGame key={r.id} app={app} id={r.id} />}
      </>
    );
  }
  else if (!user) page = app.link === 'open' || !app.conn.token ? <SignIn app={app} /> : <p class="muted">{t('connecting')}</p>;
  else if (r.page === 'game') page = <GamePage key={r.id} app={app} game={app.game(r.id)} eventId={app.eventOf(r.id)} />;
  else if (r.page === 'tournaments') page = r.id ? <EventPage key={r.id} app={app} id={r.id} /> : <TournamentsPage key={r.club ?? ''} app={app} club={r.club} />;
  else if (r.page === 'clubs') page = <ClubsPage app={app} />;
  else if (r.page === 'club') page = <ClubPage key={r.id} app={app} id={r.id} />;
  else if (r.page === 'player') page = <PlayerPage key={r.id} app={app} id={r.id} />;
  else if (r.page === 'leaderboard') page = <LeaderboardPage app={app} variant={r.variant} />;
  else page = <LobbyPage app={app} />;

  return (
    <div class="shell" data-lang={l} data-page={r.page}>
      {/* Escape closes an open menu, back on its button (a keyboard's focus was inside it). */}
      <header class={menuOpen ? 'top open' : 'top'} onKeyDown={(e) => {
        if (e.key === 'Escape' && menuOpen) { setMenuFor(null); menuButton.current?.focus(); }
      }}>
        <a class="brand" href="#/">{t('appTitle')}</a>
        <button ref={menuButton} class="menu-toggle" data-testid="menu-toggle" aria-expanded={menuOpen ? 'true' : 'false'}
                aria-controls="site-nav site-tools" onClick={() => setMenuFor(menuOpen ? null : routeKey)}>{t('menu')}</button>
        {/* A link to the page already shown changes no route: closed here too. */}
        <nav id="site-nav" onClick={(e) => { if ((e.target as Element).closest('a')) setMenuFor(null); }}>
          <NavLink href="#/" active={r.page === 'lobby'}>{t('lobby')}</NavLink>
          <NavLink href="#/tournaments" active={r.page === 'tournaments' || r.page === 'clubs' || r.page === 'club'}>{t('tournaments')}</NavLink>
          <NavLink href="#/leaderboard" testid="nav-leaderboard" active={r.page === 'leaderboard'}>{t('leaderboard')}</NavLink>
          <NavLink href="#/analysis" testid="nav-analysis" active={r.page === 'analysis'}>{t('analysisBoard')}</NavLink>
          {user && (
            <NavLink href={`#/player/${encodeURIComponent(user.userId)}`} testid="my-games" active={r.page === 'player' && r.id === user.userId}>{t('myGames')}</NavLink>
          )}
          {showAdmin && <NavLink href="#/admin" active={r.page === 'admin'}>{t('admin')}</NavLink>}
        </nav>
        <div class="right" id="site-tools">
          <SoundToggle />
          <button class="link" data-testid="lang-toggle" lang={l === 'en' ? ZH : 'en'} onClick={() => setLang(l === 'en' ? 'zh' : 'en')}>{t('language')}</button>
          {user && (
            <span class="user" data-testid="user-name" title={user.name}>
              {user.name}
              {user.guest ? paren(t('guest')) : ''}
            </span>
          )}
          {user && (
            <button class="link" data-testid="sign-out" onClick={() => {
              // A guest name cannot be signed into again: its games and event places stay behind.
              if (user.guest && !window.confirm(t('guestSignOutConfirm'))) return;
              app.conn.signOut(); app.pool = null; app.notify();
            }}>{t('signOut')}</button>
          )}
        </div>
      </header>
      <div class={`link-status ${app.link}`} data-testid="link-status" data-state={app.link} role="status" aria-live="polite">
        {linkStatusText(app)}
      </div>
      {user && app.readyGame && (
        <div class="ready-game" data-testid="ready-game" data-game={app.readyGame.gameId} role="alert">
          <span>{app.readyGame.eventId ? t('tournamentGameReady') : t('gameReady')}</span>
          {/* Its first move is due while the player reads another game: the countdown comes along. */}
          {readyModel && <FirstMoveDue game={readyModel} you={readyModel.you} quiet />}
          <button class="primary" data-testid="open-ready-game" onClick={() => app.openReadyGame()}>{t('openGameNow')}</button>
          <button class="link" onClick={() => app.dismissReadyGame()}>{t('later')}</button>
        </div>
      )}
      {user && challenge && (
        <div class="ready-game challenge-notice" data-testid="challenge-notice" data-seek={challenge.seekId} role="alert">
          <span>{t('challengeNotice', { name: challenge.owner?.name ?? '' })}</span>
          <span>
            {zhParts(challenge.variant === Variant.JIEQI ? t('jieqi') : t('xiangqi'))} · {tcText(challenge.timeControl)} ·{' '}
            {challenge.color === Side.RED ? t('youPlay', { side: t('black') }) : challenge.color === Side.BLACK ? t('youPlay', { side: t('red') }) : t('random')} ·{' '}
            {challenge.rated ? t('rated') : t('casual')}
          </span>
          <button class="primary" data-testid="accept-challenge" onClick={() => void app.acceptChallenge(challenge)}>{t('accept')}</button>
          <button class="link" data-testid="decline-challenge" onClick={() => void app.declineChallenge(challenge)}>{t('declineChallenge')}</button>
          {!!app.challengeError && <span class="error">{errorText(app.challengeError)}</span>}
        </div>
      )}
      <main>
        {/* The game page names itself (its players). */}
        {name && <h1 class="sr-only" tabIndex={-1} data-testid="page-heading">{name}</h1>}
        {page}
      </main>
    </div>
  );
}

// The active page's link says so in words too (aria-current), not only by its look.
// The bar's words while the link is not open. A resume refused because the server's storage
// (Redis) is stalled can keep the page reconnecting for many seconds: it says so, not only
// "reconnecting".
function linkStatusText(app: App): string {
  if (app.link === 'reconnecting') return app.conn.storageUnavailable ? t('reconnectingStorage') : t('reconnecting');
  if (app.link === 'stalled') return t('linkStalled');
  if (app.link === 'connecting') return t('connecting');
  return '';
}

function NavLink({ href, active, testid, children }: { href: string; active: boolean; testid?: string; children: string }) {
  return <a href={href} data-testid={testid} class={active ? 'active' : ''} aria-current={active ? 'page' : undefined}>{children}</a>;
}

// The page's name, its tab title and its (hidden) heading; null on a game page, which names
// itself after its players.
function pageName(app: App): string | null {
  const r = app.route;
  if (r.page === 'game') return null;
  if (r.page === 'admin') return t('admin');
  if (r.page === 'analysis') return t('analysisBoard');
  if (!app.user && !readableSignedOut(r)) return t('signIn');
  // An event's and another player's page by its name, once loaded ("Spring Open · Tournaments").
  const subject = 'id' in r && r.id && app.pageSubject?.page === `${r.page}/${r.id}` ? app.pageSubject.name : '';
  if (r.page === 'tournaments') return subject ? `${subject} · ${t('tournaments')}` : t('tournaments');
  if (r.page === 'clubs') return t('clubs');
  if (r.page === 'club') return subject ? `${subject} · ${t('club')}` : t('club');
  if (r.page === 'player') return r.id === app.user?.userId ? t('myGames') : subject ? `${subject} · ${t('player')}` : t('player');
  if (r.page === 'leaderboard') return t('leaderboard');
  return t('lobby');
}

// The tab's title follows the page; when the page changes (a link, a sign-in or out) the focus
// goes to its heading if it was lost or was on a header link, not when the app first opens.
function usePageChange(app: App, name: string | null) {
  useEffect(() => {
    if (name) document.title = pageTitle(name);
  }, [name]);
  const r = app.route;
  const place = `${r.page}/${'id' in r ? r.id ?? '' : ''}|${app.user?.userId ?? ''}`;
  const placed = useRef<string | null>(null);
  useEffect(() => {
    const before = placed.current;
    placed.current = place;
    if (before === null) return;
    if (focusLost() || document.querySelector('header.top')?.contains(document.activeElement)) focusPageHeading();
  }, [place]);
}

// A game opened signed out: its replay if it is over, else a line asking to sign in to watch.
function PublicGame({ app, id }: { app: App; id: string }) {
  const game = app.game(id);
  useObservable(game);
  if (game.needsSignIn) return <p class="muted sign-in-note" data-testid="live-game-sign-in">{t('liveGameSignIn')}</p>;
  return <GamePage app={app} game={game} eventId={app.eventOf(id)} />;
}

// Sound on or off (ui/alerts.ts), for this browser.
function SoundToggle() {
  const [on, setOn] = useState(soundOn());
  return (
    <button class="link" data-testid="sound-toggle" data-on={on ? '1' : '0'} title={on ? t('soundOff') : t('soundOn')}
            aria-label={t('sound')} aria-pressed={on ? 'true' : 'false'} onClick={() => { setSoundOn(!on); setOn(!on); }}>
      <SpeakerIcon on={on} />
    </button>
  );
}

// Drawn, not an emoji: systems without an emoji font (many Linux desktops) showed an empty box.
function SpeakerIcon({ on }: { on: boolean }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
      <path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor" />
      {on ? <path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" /> : <path d="M17 9l5 6M22 9l-5 6" />}
    </svg>
  );
}

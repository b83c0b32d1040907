// Game page for players and spectators alike: board, clocks, actions, draw offers, result, move
// list with step-through replay, captured pieces, the Jieqi commitment check and record downloads.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { App } from '../app';
import { gameFen } from '../analysis/fen';
import { turnedUpAtEnd } from '../game/commitment';
import type { GameModel } from '../game/model';
import { ruleOptionTags } from '../game/rule_options';
import { apiErrorText, captureVisibilityText, paren, t, useLang } from '../i18n';
import { api } from '../net/http';
import { Outcome, Variant } from '../net/proto';
import { iccsOf, parseIccs, type Color, type Move, type Position, type Square } from '../rules/board';
import { chineseMove } from '../rules/notation';
import { knockoutName, nextGameOfMatch, placeOfGame, type GamePlace } from '../tournament/logic';
import { useObservable } from '../store';
import { alertPlayer } from './alerts';
import { Board } from './Board';
import { Captured } from './Captured';
import { Clock } from './Clock';
import { Commitment } from './Commitment';
import { GameAnnouncer } from './GameAnnouncer';
import { MoveEntry } from './MoveEntry';
import { MoveList } from './MoveList';
import { Chat, ChatUnread } from './Chat';
import { Rematch } from './Rematch';
import { focusLost, focusSoon, pageTitle } from './page';
import { clockText, poolLabel, ratingCounted, resultText, rulesetTag, tcText } from './format';
import { zhParts } from './lang';

// "Round 2, board 1 · G2" or the play-off game's name: a tournament game says where it belongs.
function slotText(s: GamePlace): string {
  if ('knockout' in s) return knockoutName(s.knockout);
  return `${t('roundBoard', { r: s.round, b: s.board })} · ${t('gameN', { n: s.game })}`;
}

// After a game of a two-game match ends, the next one starts at once: a link to it for everyone on
// this page (spectators especially), once the server has it.
function useNextGameOfMatch(gameId: string, over: boolean, eventId: string | undefined): string | null {
  const [next, setNext] = useState<string | null>(null);
  useEffect(() => {
    setNext(null);
    const id = nextGameOfMatch(gameId);
    const place = placeOfGame(gameId);
    if (!over || !eventId || !id || !place || 'knockout' in place) return;
    let stopped = false;
    let tries = 0;
    const probe = async () => {
      if (stopped || tries++ > 40) return;
      if (tries === 1) {
        // Only a match with a game after this one has a next game to wait for.
        const ev = await fetch(`/api/events/${encodeURIComponent(eventId)}`).then((r) => (r.ok ? r.json() : null), () => null);
        if (stopped || place.game >= (ev?.config?.pairing?.games_per_round ?? 1)) return;
      }
      // A delayed broadcast's record is withheld (403) while it runs: the game exists all the same.
      const ok = await fetch(`/api/games/${encodeURIComponent(id)}`).then((r) => r.ok || r.status === 403, () => false);
      if (stopped) return;
      if (ok) setNext(id);
      else timer = window.setTimeout(probe, 3000);
    };
    let timer = window.setTimeout(probe, 500);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [gameId, over, eventId]);
  return next;
}

// A tournament game's result as the event now records it, when the organiser corrected it: the
// game's own record keeps what happened on the board.
function useCorrectedResult(gameId: string, over: boolean, eventId: string | undefined): { red: number; black: number } | null {
  const [corrected, setCorrected] = useState<{ red: number; black: number } | null>(null);
  useEffect(() => {
    setCorrected(null);
    if (!over || !eventId || !placeOfGame(gameId)) return;
    let stopped = false;
    void fetch(`/api/events/${encodeURIComponent(eventId)}`)
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null)
      .then((ev: { games?: { game_id: string; reason?: string; red_points: number; black_points: number }[] } | null) => {
        const slot = ev?.games?.find((g) => g.game_id === gameId);
        if (!stopped && slot?.reason === 'corrected') setCorrected({ red: slot.red_points, black: slot.black_points });
      });
    return () => {
      stopped = true;
    };
  }, [gameId, over, eventId]);
  return corrected;
}

export function GamePage({ app, game, eventId }: { app: App; game: GameModel; eventId?: string }) {
  useObservable(game);
  useObservable(app); // the link's state: the game's buttons wait for it
  useLang();
  const [viewPly, setViewPly] = useState<number | null>(null); // null = follow the live game
  const [flipped, setFlipped] = useState(false);
  const [confirmResign, setConfirmResign] = useState(false);
  const [confirmAbort, setConfirmAbort] = useState(false);
  // A refused click or drop: why, until the next move or a few seconds later.
  const [illegal, setIllegal] = useState<{ reason: 'check' | 'illegal'; plies: number } | null>(null);
  useEffect(() => {
    if (!illegal) return;
    const timer = window.setTimeout(() => setIllegal(null), 6000);
    return () => window.clearTimeout(timer);
  }, [illegal]);
  // A live game of this user's on screen: its clock may run, so a dead link should be noticed
  // sooner (more frequent pings). Not for a spectator, nor once the game is over.
  const playingLive = game.loaded && !!game.you && !game.over && !game.archived;
  useEffect(() => (playingLive ? app.conn.pingOftenWhilePlaying() : undefined), [playingLive]);
  const nextGame = useNextGameOfMatch(game.id, game.over, eventId);
  const corrected = useCorrectedResult(game.id, game.over, eventId);

  // Arrow keys step through the moves on desktop.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement)?.tagName === 'INPUT') return;
      const n = game.moves.length;
      const cur = viewPly ?? n;
      if (e.key === 'ArrowLeft') setViewPly(Math.max(0, cur - 1));
      else if (e.key === 'ArrowRight') setViewPly(cur + 1 >= n ? null : cur + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [game, viewPly]);

  const name = t('gameTitle', { red: game.red?.name ?? '…', black: game.black?.name ?? '…' });
  useMoveAlerts(game, name);
  // Opened from the lobby (a seek accepted, a pairing) the focus was on a button of the page left:
  // it goes to this page's heading, which names the game.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (game.loaded && focusLost()) heading.current?.focus();
  }, [game.loaded]);

  if (!game.loaded) {
    // The server's refusal in words ("No such game.", or why else the game cannot be shown), once.
    return <p class={game.error ? 'error' : 'muted'} data-testid="game-load-error">{game.error || t('loading')}</p>;
  }

  const you = game.you;
  const n = game.moves.length;
  const ply = viewPly !== null && viewPly < n ? viewPly : n;
  const live = ply === n;
  // Once a Jieqi game is over its assignment is public: the pieces never turned show what they were.
  const end = live && game.over && game.result?.assignment ? turnedUpAtEnd(game.position, game.result.assignment) : null;
  const position = end ? end.position : live ? game.position : game.positionAt(ply);
  const bottom: Color = (you ?? 'r') === 'r' ? (flipped ? 'b' : 'r') : flipped ? 'r' : 'b';
  const top: Color = bottom === 'r' ? 'b' : 'r';

  // Last move and check marks follow the position shown (the pending move counts as the last).
  let lastMove: { from: Square; to: Square } | null = null;
  let check = false;
  if (live && game.pending) lastMove = parseIccs(game.pending.iccs);
  else if (ply > 0) {
    lastMove = parseIccs(game.moves[ply - 1].iccs);
    check = game.moves[ply - 1].check;
  }
  const revealSquare = !game.pending && ply > 0 && game.moves[ply - 1].reveal ? lastMove?.to ?? null : null;
  let checkSquare: Square | null = null;
  if (check) checkSquare = position.board.findIndex((p) => p?.type === 'K' && p.color === position.turn);

  const movable = live && game.myTurn() ? you : null;
  const playing = !!you && !game.over;
  const opponentGone = playing && game.opponentGone;
  // Outside tournaments, while a first move is due: no claims, the game is aborted without it.
  const firstMoveAborts = game.firstMoveAborts && game.firstMoveDueInMs() !== null;
  // While the opponent thinks (or our own move is on its way) a move may be chosen in advance.
  const premovable = live && playing && !game.myTurn() ? you : null;
  const st = game.state!;
  // A rated game that ended without counting (aborted, or over before both sides moved) says so.
  const ratedButNotCounted = game.over && !ratingCounted({ rated: st.rated, reason: game.result?.reason, plies: game.moves.length });
  const player = (c: Color) => (c === 'r' ? game.red : game.black);
  // While the link is down an action could only fail ("not connected"): its button is disabled
  // and says why, until the link is back. (A move is different: it waits and is sent then.)
  const offline = app.link !== 'open';
  const offlineTitle = offline ? t('notConnectedTitle') : undefined;

  let status: string;
  if (game.over && game.result) status = resultText(game.result);
  // The page's own link is down (or the game not read again since): the turn may have passed
  // meanwhile, and the clocks stand still here (GameModel.reconnecting).
  else if (game.reconnecting) status = you ? t('gameReconnecting') : `${t('spectating')} · ${t('gameReconnecting')}`;
  else if (!you) status = `${t('spectating')} · ${position.turn === 'r' ? t('redToMove') : t('blackToMove')}`;
  // Our move on its way is already on the board: the opponent's move now, unless it takes long.
  else if (game.pending?.retries) status = t('sendingAgain');
  else status = position.turn === you ? t('yourTurn') : t('theirTurn');
  // The side to move in the live game is in check (the server's flag on the last move): said in
  // words too, not only by the ring on the general.
  const liveCheck = !game.over && !game.reconnecting && !game.pending && n > 0 && game.moves[n - 1].check;
  if (liveCheck) status = `${status} · ${t('inCheckNow')}`;

  const play = (from: Square, to: Square) => {
    setIllegal(null);
    game.move(iccsOf({ from, to }));
  };

  const bar = (c: Color) => (
    <div class={`player-bar ${c === 'r' ? 'red' : 'black'} ${position.turn === c && !game.over ? 'to-move' : ''}`} data-testid={`bar-${c === 'r' ? 'red' : 'black'}`}>
      <span class="side-dot" aria-hidden="true" />
      <span class="name" title={player(c)?.name}>
        {/* The colour in words too, not only by the dot (red and black look alike to some). */}
        <span class="side" data-testid="bar-side">{t(c === 'r' ? 'red' : 'black')}</span>
        {/* Only the name itself is cut short: "(you)" and the computer tag always show. */}
        <span class="who">
          {player(c)?.userId ? <a href={`#/player/${encodeURIComponent(player(c)!.userId)}`} title={player(c)?.name}>{player(c)?.name}</a> : player(c)?.name}
        </span>
        {you === c && <span class="you">{paren(t('you'))}</span>}
        {player(c)?.bot && <span class="tag" data-testid="bot-tag">{t('computer')}</span>}
      </span>
      <Clock game={game} color={c} />
    </div>
  );

  return (
    <div class="game-page" data-testid="game-page" data-game-id={game.id} data-you={you ?? 'spectator'} data-over={game.over ? '1' : '0'}>
      <h1 class="sr-only" tabIndex={-1} ref={heading} data-testid="page-heading">{name}</h1>
      <div class="board-col">
        {bar(top)}
        <Board
          position={position}
          orientation={bottom}
          lastMove={lastMove}
          checkSquare={checkSquare}
          revealSquare={revealSquare}
          turnedAtEnd={end?.turned}
          movable={movable}
          onMove={play}
          onIllegal={(reason) => setIllegal({ reason, plies: n })}
          premovable={premovable}
          premove={live ? game.premove : null}
          onPremove={(m) => (m ? game.setPremove(m) : game.cancelPremove())}
        />
        {bar(bottom)}
      </div>
      <aside class="side-col">
        <div class="panel info">
          <div class="meta">
            <span class="tag">{zhParts(st.variant === Variant.JIEQI ? t('jieqi') : t('xiangqi'))}</span>
            <span class="tag">{tcText(st.timeControl)}</span>
            <span class="tag">{rulesetTag(st.ruleset)}</span>
            {st.variant === Variant.JIEQI && (
              <span class="tag" data-testid="game-capture-visibility">{captureVisibilityText(st.captureVisibility)}</span>
            )}
            {ruleOptionTags(st.ruleOptions).map((tag) => (
              <span class="tag" data-testid="game-rule-option">{tag}</span>
            ))}
            {eventId && placeOfGame(game.id) ? (
              <span class="tag" data-testid="game-place">{slotText(placeOfGame(game.id)!)}</span>
            ) : (
              <span class="tag" data-testid="game-rated" data-rated={st.rated ? '1' : '0'} data-counted={st.rated && !ratedButNotCounted ? '1' : '0'}>
                {!st.rated ? t('casual') : ratedButNotCounted ? t('ratedNotCounted') : t('rated')}
              </span>
            )}
            {!game.over && game.spectators > 0 && (
              <span class="tag" data-testid="spectators" data-count={game.spectators}>{t('watching', { n: game.spectators })}</span>
            )}
            {eventId && (
              <a class="tag" data-testid="back-to-event" href={`#/tournaments/${encodeURIComponent(eventId)}`}>{t('backToEvent')}</a>
            )}
          </div>
          <p class={`status ${game.over ? 'over' : ''}${liveCheck ? ' in-check' : ''}`} tabIndex={-1} data-testid={game.over ? 'result' : 'status'} data-in-check={liveCheck ? '1' : undefined}>
            {status}
          </p>
          {/* The status is said by the announcer, together with the move that changed it. */}
          <GameAnnouncer game={game} />
          {/* The opponent has gone: said right under the status, with the claims, so that on a phone
              both are on the first screen (they were under the buttons, below it). The region is
              always there: one added together with its text is not read out by every screen
              reader, and its text changes only when the opponent goes or comes back. */}
          {playing && <div role="status" data-testid="opponent-gone-live">
            {opponentGone && (
              <p class="opponent-gone" data-testid="opponent-gone">
                {eventId ? t('opponentGoneClockRuns') : firstMoveAborts ? t('opponentGoneFirstMove') : t('opponentGone', { s: Math.round(game.claimAfterMs / 1000) })}
              </p>
            )}
          </div>}
          {/* Claims only when the opponent has no connection on the game (Presence), not in
              tournament games, and not while a first move is due: without it the game is aborted. */}
          {opponentGone && !eventId && !firstMoveAborts && (
            <Claims game={game} offline={offline} />
          )}
          {!game.recordOnly && <ChatUnread game={game} me={app.user?.userId} />}
          {game.over && you && (game.result?.outcome === Outcome.RED_WINS || game.result?.outcome === Outcome.BLACK_WINS || game.result?.reason === 'double_forfeit') && (
            // The result names a colour; a player is told which way it went for them (a double
            // forfeit: both lost).
            <p class="result-for-you" data-testid="result-for-you">
              {t(game.result!.reason !== 'double_forfeit' && (game.result!.outcome === Outcome.RED_WINS) === (you === 'r') ? 'youWon' : 'youLost')}
            </p>
          )}
          <FirstMoveDue game={game} you={you} />
          {game.premove && !game.over && (
            <p class="muted premove-line" data-testid="premove" data-iccs={iccsOf(game.premove)} role="status">
              {t('premoveSet', { move: premoveText(game.position, game.premove) })}{' '}
              <button class="link" data-testid="cancel-premove" onClick={() => game.cancelPremove()}>{t('cancelPremove')}</button>
            </p>
          )}
          {illegal && illegal.plies === n && !game.over && (
            <p class="muted" data-testid="illegal-move" data-reason={illegal.reason} role="status">
              {t(illegal.reason === 'check' ? 'illegalMoveCheck' : 'illegalMove')}
            </p>
          )}
          {corrected && (
            <p class="muted" data-testid="result-corrected" role="status">{t('resultCorrected', { red: corrected.red, black: corrected.black })}</p>
          )}
          {nextGame && (
            <a class="button primary" data-testid="next-game-of-match" href={`#/game/${encodeURIComponent(nextGame)}`}>{t('nextGameOfMatch')}</a>
          )}
          {!game.over && (
            <>
              <Offer
                game={game}
                offline={offline}
                what="draw"
                by={game.drawOfferBy}
                declined={game.drawDeclined}
                text={game.drawOfferBy === you ? t('youOfferedDraw') : t('drawOffered', { side: sideName(game.drawOfferBy) })}
              />
              <Offer
                game={game}
                offline={offline}
                what="takeback"
                by={game.takebackBy}
                declined={game.takebackDeclined}
                text={
                  game.takebackBy === you
                    ? t('youProposedTakeback')
                    : you
                      ? // The proposer to move: the opponent has replied, and accepting undoes that reply too.
                        t('takebackAsked') + (game.takebackBy === game.position.turn ? t('takebackWithReply') : '')
                      : t('takebackAskedBy', { side: sideName(game.takebackBy) })
                }
              />
              {game.takebackAccepted && !game.takebackBy && (
                <p class="muted" data-testid="takeback-accepted" role="status">{t('takebackAccepted')}</p>
              )}
            </>
          )}
          {game.requestedLimit && !game.over && (
            <p class="muted" data-testid="move-limit-status" role="status">
              {t(!game.requestedLimit.byArbiter ? 'moveLimitRunning' : game.requestedLimit.by ? 'moveLimitByArbiterOn' : 'moveLimitByArbiter', {
                side: game.requestedLimit.by === 'r' ? t('red') : t('black'),
                counted: String(game.requestedLimit.counted),
                limit: String(game.requestedLimit.limit),
              })}
            </p>
          )}
          {playing && (
            <div class="actions">
              {confirmResign ? (
                <>
                  <button class="danger" data-testid="confirm-resign" disabled={offline} title={offlineTitle} onClick={() => { setConfirmResign(false); void game.action('resign'); focusSoon(STATUS); }}>{t('confirmResign')}</button>
                  <button data-testid="cancel-resign" onClick={() => { setConfirmResign(false); focusSoon('[data-testid=resign]'); }}>{t('cancel')}</button>
                </>
              ) : (
                <button data-testid="resign" disabled={offline} title={offlineTitle} onClick={() => { setConfirmResign(true); focusSoon('[data-testid=confirm-resign]'); }}>{t('resign')}</button>
              )}
              <button data-testid="offer-draw" disabled={offline || !!game.drawOfferBy} title={offlineTitle} onClick={() => void game.action('offerDraw')}>{t('offerDraw')}</button>
              {/* Casual games: take back one's last move (and the reply to it) if the opponent agrees. */}
              {game.canProposeTakeback() && (
                <button data-testid="propose-takeback" disabled={offline} title={offlineTitle} onClick={() => void game.action('proposeTakeback')}>{t('proposeTakeback')}</button>
              )}
              {game.timeGiftMs > 0 && (
                <button
                  data-testid="give-time"
                  disabled={offline || game.timeGiftsLeft <= 0}
                  title={offlineTitle ?? (game.timeGiftsLeft > 0 ? t('giveTimeTitle', { s: game.timeGiftMs / 1000 }) : t('noTimeGiftsLeft'))}
                  onClick={() => void game.action('giveTime')}
                >
                  {t('giveTime', { s: game.timeGiftMs / 1000 })}
                </button>
              )}
              {!!st.ruleOptions?.requestedMoveLimitPlies && !game.requestedLimit && (
                <button data-testid="request-move-limit" disabled={offline} title={offlineTitle} onClick={() => void game.action('requestMoveLimit')}>{t('requestMoveLimit')}</button>
              )}
              {/* Tournament games cannot be aborted (docs/tournaments.md). */}
              {/* Asked first, as resigning is: a slip of the finger ends the game for both. */}
              {n < 2 && !eventId && (confirmAbort ? (
                <>
                  <button class="danger" data-testid="confirm-abort" disabled={offline} title={offlineTitle} onClick={() => { setConfirmAbort(false); void game.action('abort'); focusSoon(STATUS); }}>{t('confirmAbortGame')}</button>
                  <button data-testid="cancel-abort" onClick={() => { setConfirmAbort(false); focusSoon('[data-testid=abort]'); }}>{t('cancel')}</button>
                </>
              ) : (
                <button data-testid="abort" disabled={offline} title={offlineTitle} onClick={() => { setConfirmAbort(true); focusSoon('[data-testid=confirm-abort]'); }}>{t('abort')}</button>
              ))}
            </div>
          )}
          {/* Under the actions, not under the board: on a phone it pushed the status, the
              opponent-gone note and the claims below the first screen. */}
          {playing && <MoveEntry position={position} movable={movable} onMove={play} />}
          {app.requeued?.gameId === game.id && app.pool === app.requeued.pool && <Requeued app={app} pool={app.requeued.pool} />}
          {/* Tournament games are paired by the event, not by the players. */}
          {game.over && you && !eventId && <Rematch app={app} game={game} />}
          {game.error && (
            <p class="error" role="alert" onClick={() => game.clearError()}>{game.error}</p>
          )}
          <div class="actions small">
            <button onClick={() => setFlipped(!flipped)}>{t('flip')}</button>
            {/* A finished Xiangqi game, at the ply on view, opens on the analysis board. Not Jieqi:
                its face-down pieces move by their square and reveal when moved, which a Xiangqi
                position cannot carry (docs/web-client.md). */}
            {game.over && st.variant !== Variant.JIEQI && (
              <a class="button" data-testid="analyse" title={t('analyseTitle')} href={`#/analysis?fen=${encodeURIComponent(gameFen(position, ply))}`}>
                {t('analyse')}
              </a>
            )}
          </div>
        </div>
        <MoveList moves={game.moves} ply={ply} onSelect={(p) => setViewPly(p >= n ? null : p)} />
        <Captured game={game} />
        {/* Signed out there is no session to read or write the chat with. */}
        {!game.recordOnly && <Chat game={game} tournament={!!eventId} me={app.user?.userId} onReport={app.user ? (seq) => reportChatLine(app, game.id, seq) : undefined} />}
        {st.variant === Variant.JIEQI && <Commitment game={game} />}
        <Downloads game={game} tournament={!!eventId} />
      </aside>
    </div>
  );
}

// The premove in words: Chinese notation in the live position, not a replayed one (a face-down Jieqi
// piece has none), and ICCS.
function premoveText(position: Position, m: Move): string {
  const zh = chineseMove(position, m);
  return zh ? `${zh} (${iccsOf(m)})` : iccsOf(m);
}

const sideName = (c: Color | null) => (c === 'r' ? t('red') : t('black'));

// Where the focus goes after a button that goes away (a confirmed resignation, an answered offer):
// the status line, which then says the turn or the result (the buttons' swaps and answers left
// the focus on the page's body).
const STATUS = '[data-testid=game-page] p.status';

// A standing draw offer or takeback proposal: what it is, and Accept / Decline for the player it
// is put to; after a decline, a note until the next move (so the one who asked sees the answer).
// The answers' names are both the model's actions and their labels' keys.
const OFFERS = {
  draw: { accept: 'acceptDraw', decline: 'declineDraw', declined: 'drawDeclined' },
  takeback: { accept: 'acceptTakeback', decline: 'declineTakeback', declined: 'takebackDeclined' },
} as const;

function Offer({ game, offline, what, by, declined, text }: { game: GameModel; offline: boolean; what: keyof typeof OFFERS; by: Color | null; declined: boolean; text: string }) {
  const offlineTitle = offline ? t('notConnectedTitle') : undefined;
  const o = OFFERS[what];
  const answers = !!game.you && !game.over && by !== game.you;
  return (
    <>
      {declined && <p class="muted" data-testid={`${what}-declined`} role="status">{t(o.declined)}</p>}
      {by && (
        <div class="offer" data-testid={`${what}-offer`}>
          {text}
          {answers && (
            <>
              <button class="primary" data-testid={`accept-${what}`} disabled={offline} title={offlineTitle} onClick={() => { void game.action(o.accept); focusSoon(STATUS); }}>{t(o.accept)}</button>
              <button data-testid={`decline-${what}`} disabled={offline} title={offlineTitle} onClick={() => { void game.action(o.decline); focusSoon(STATUS); }}>{t(o.decline)}</button>
            </>
          )}
        </div>
      )}
    </>
  );
}

function Downloads({ game, tournament }: { game: GameModel; tournament: boolean }) {
  const path = `/api/games/${encodeURIComponent(game.id)}`;
  // A delayed broadcast (tournament games only) withholds a running game's record from
  // spectators (403): say so rather than offer links that lead to an error.
  const [withheld, setWithheld] = useState(false);
  const ask = tournament && !game.over && !game.you;
  useEffect(() => {
    if (!ask) return setWithheld(false);
    let live = true;
    fetch(path).then((r) => live && setWithheld(r.status === 403), () => {});
    return () => {
      live = false;
    };
  }, [path, ask]);
  if (withheld && ask) return <p class="panel downloads muted small" data-testid="record-withheld">{t('recordWithheld')}</p>;
  return (
    <div class="panel downloads">
      <a class="button" data-testid="download-record" href={path} download={`${game.id}.json`}>{t('download')}</a>
      <a class="button" data-testid="download-pgn" href={`${path}/pgn`} download={`${game.id}.pgn`}>{t('downloadText')}</a>
    </div>
  );
}

// How long the side to move has left to make its first move before the no-show forfeit
// (tournament games) or the game is aborted (others). The server decides; this only counts down
// from what it said.
// The countdown's text changes every half second, so it is no live region (a screen reader would
// read it again and again); a hidden live region, always there (one added together with its text
// is not read out by every screen reader), says it when it appears, when it passes to the other
// side and when it becomes urgent, with the time left at that moment.
// `quiet`: no live region, and the countdown kept out of its parent's (the "game ready" banner is
// an alert, which would be read out again at every tick).
export function FirstMoveDue({ game, you, quiet = false }: { game: GameModel; you: Color | null; quiet?: boolean }) {
  const [, setTick] = useState(0);
  const [said, setSaid] = useState<{ key: string; ms: number } | null>(null);
  const left = game.firstMoveDueInMs();
  const active = left !== null;
  useEffect(() => {
    if (!active) return;
    const id = window.setInterval(() => setTick((x) => x + 1), 500);
    return () => window.clearInterval(id);
  }, [active]);
  const side: Color = game.moves.length === 0 ? 'r' : 'b';
  // A clock shorter than the no-show time runs out first: the game is lost on time, and a
  // countdown to a forfeit that cannot come would mislead (review, 2026-12-04).
  const shown = left !== null && game.clockNow(side) > left;
  const aborts = game.firstMoveAborts;
  const urgent = shown && left < (aborts ? 10_000 : 60_000);
  const key = shown ? `${side}/${aborts ? 'abort' : 'forfeit'}/${urgent ? 'urgent' : ''}` : '';
  // Set after the render (an effect), so that the region is there, empty, before its first text.
  useEffect(() => { if (!quiet) setSaid(shown ? { key, ms: left } : null); }, [key, quiet]);
  const sideName = side === 'r' ? t('red') : t('black');
  const text = (ms: number) => {
    const time = clockText(ms);
    return aborts
      ? side === you ? t('firstMoveAbortYou', { time }) : t('firstMoveAbort', { side: sideName, time })
      : side === you ? t('firstMoveDueYou', { time }) : t('firstMoveDue', { side: sideName, time });
  };
  // Stands still while the page's link is down, greyed as the clocks are (GameModel.countdownNow).
  const paused = game.reconnecting;
  const countdown = shown && (
    <p class={`muted first-move-due${urgent ? ' urgent' : ''}${paused ? ' paused' : ''}`} data-testid="first-move-due" data-side={side} data-aborts={aborts ? 'true' : 'false'} data-ms={Math.round(left)}
      title={paused ? t('countdownPausedTitle') : undefined} aria-live={quiet ? 'off' : undefined}>
      {text(left)}
    </p>
  );
  if (quiet) return countdown || null;
  return (
    <>
      {countdown}
      <p class="sr-only" role="status" data-testid="first-move-announce">{said && said.key === key ? text(said.ms) : ''}</p>
    </>
  );
}

// "Claim the win" / "Claim a draw" while the opponent is gone. They open when the server says
// they may (Presence.claim_after_ms), not before: a click before that was refused, and the refusal
// stayed on screen (flaky-network review, 2026-12-05). Until then the time left is shown; it stands
// still, greyed, while the page's link is down (GameModel.countdownNow). The wait is no live
// region (it would be read out at every tick): the buttons say when they open.
function Claims({ game, offline }: { game: GameModel; offline: boolean }) {
  const [, setTick] = useState(0);
  const wait = game.claimWaitMs();
  const waiting = wait > 0;
  useEffect(() => {
    if (!waiting) return;
    const id = window.setInterval(() => setTick((x) => x + 1), 500);
    return () => window.clearInterval(id);
  }, [waiting]);
  const title = offline ? t('notConnectedTitle') : waiting ? t('opponentGone', { s: Math.round(game.claimAfterMs / 1000) }) : undefined;
  const paused = game.reconnecting;
  return (
    <div class="actions claims">
      <button data-testid="claim-victory" disabled={offline || waiting} title={title} onClick={() => void game.action('claimVictory')}>{t('claimVictory')}</button>
      <button data-testid="claim-draw" disabled={offline || waiting} title={title} onClick={() => void game.action('claimDraw')}>{t('claimDraw')}</button>
      {waiting && (
        <p class={`muted claim-wait${paused ? ' paused' : ''}`} data-testid="claim-wait" data-ms={Math.round(wait)} title={paused ? t('countdownPausedTitle') : undefined}>
          {t('claimWait', { time: clockText(wait) })}
        </p>
      )}
    </div>
  );
}

// Reports a chat line to the moderators (POST /api/games/{id}/chat/report): '' or why it failed.
async function reportChatLine(app: App, gameId: string, seq: number): Promise<string> {
  try {
    await api('POST', `/api/games/${encodeURIComponent(gameId)}/chat/report`, { seq }, { token: app.conn.token });
    return '';
  } catch (e) {
    return apiErrorText(e);
  }
}

const PAGE_TITLE = document.title; // index.html's

// A sound when a move of the other side (or anyone's, for a spectator) arrives and when the game
// ends, not for what was there when the page opened; the tab's title names the game and says
// "your move" first.
function useMoveAlerts(game: GameModel, name: string) {
  const seen = useRef<{ moves: number; over: boolean } | null>(null);
  const n = game.moves.length;
  useEffect(() => {
    if (!game.loaded) return;
    const before = seen.current;
    seen.current = { moves: n, over: game.over };
    if (!before) return;
    if (game.over && !before.over) alertPlayer('end');
    else if (n > before.moves) {
      const moverIsRed = n % 2 === 1;
      if (game.you !== (moverIsRed ? 'r' : 'b')) alertPlayer('move');
    }
  }, [game.loaded, n, game.over]);
  // An offer from the opponent (a draw, a takeback) sounds once, when it comes.
  const opponent = game.you === 'r' ? 'b' : game.you === 'b' ? 'r' : null;
  const offered = !!opponent && !game.over && (game.drawOfferBy === opponent || game.takebackBy === opponent);
  const wasOffered = useRef<boolean | null>(null);
  useEffect(() => {
    if (!game.loaded) return;
    if (wasOffered.current === false && offered) alertPlayer('offer');
    wasOffered.current = offered;
  }, [game.loaded, offered]);
  const yourMove = game.loaded && !game.over && !!game.you && game.myTurn();
  // While the page's link is down the turn may have passed meanwhile: the title says the page is
  // reconnecting instead of "your move" (as the status does), and the turn again once back.
  const linkDown = game.reconnecting && !game.over;
  useEffect(() => {
    if (linkDown) document.title = `↻ ${t('titleReconnecting')} · ${pageTitle(name)}`;
    else document.title = yourMove ? `● ${t('yourTurn')} · ${pageTitle(name)}` : pageTitle(name);
    return () => {
      document.title = PAGE_TITLE;
    };
  }, [yourMove, linkDown, name]);
}

// The opponent aborted our quick-pairing game: we wait in its pool again, and the next game opens here.
function Requeued({ app, pool }: { app: App; pool: string }) {
  const [error, setError] = useState('');
  return (
    <div class="row pool-waiting" data-testid="requeued" role="status">
      <span class="spinner" aria-hidden="true" />
      <span>{zhParts(t('requeued', { pool: poolLabel(pool) }))}</span>
      <button data-testid="requeued-leave" onClick={() => app.leavePool(pool).catch((e) => setError(apiErrorText(e)))}>{t('leavePool')}</button>
      {error && <span class="error" role="alert">{error}</span>}
    </div>
  );
}

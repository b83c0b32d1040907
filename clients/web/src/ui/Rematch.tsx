// Rematch on a finished game's page: a direct challenge to the opponent with the same settings and
// the colours swapped. The opponent's page sees it in the seek list (players get it again when
// their game ends) and may accept; whoever accepts or offered it is taken to the new game.
import { useEffect, useState } from 'preact/hooks';
import type { App } from '../app';
import type { GameModel } from '../game/model';
import { errorText, t } from '../i18n';
import { Side, Variant, type Seek } from '../net/proto';

export function Rematch({ app, game }: { app: App; game: GameModel }) {
  const you = game.you;
  const st = game.state;
  const opponent = you === 'r' ? game.black : game.red;
  const me = app.conn.user?.userId;
  const [seeks, setSeeks] = useState<Seek[]>([]);
  const [error, setError] = useState('');
  // As the game's own buttons: disabled while the link is down, where they could only fail.
  const offline = app.link !== 'open';
  const offlineTitle = offline ? t('notConnectedTitle') : undefined;

  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const r = await app.conn.request({ listSeeks: {} });
        if (live) setSeeks((r.seeks?.seeks ?? []) as Seek[]);
      } catch {
        /* the link banner shows it; the pushes or the next load fill in */
      }
    };
    const off = app.conn.onMessage((m) => {
      if (m.body === 'seeks' && m.seeks) setSeeks((m.seeks.seeks ?? []) as Seek[]);
    });
    const offReady = app.conn.onReady(() => void load());
    void load();
    return () => {
      live = false;
      off();
      offReady();
    };
  }, [app, game.id]);

  const offered = me && opponent?.userId ? seeks.find((s) => s.owner?.userId === me && s.targetUserId === opponent.userId) : undefined;
  const incoming = me && opponent?.userId ? seeks.find((s) => s.owner?.userId === opponent.userId && s.targetUserId === me) : undefined;
  // Both asked at once (each offer crossed the other): each page takes the other's, and the
  // server starts one game of the two (the other offer is void). Without this, each page waited
  // with an offer of its own and the other's unanswered.
  const crossed = offered && incoming ? incoming.seekId : '';
  useEffect(() => {
    if (crossed) void act({ acceptSeek: { seekId: crossed } }, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [crossed]);

  if (!you || !st || !opponent?.userId || !me) return null;

  const reload = async () => {
    const l = await app.conn.request({ listSeeks: {} });
    setSeeks((l.seeks?.seeks ?? []) as Seek[]);
  };
  // quiet: the crossing offers' own accept, whose refusal only means the other page's won.
  const act = async (body: Parameters<App['conn']['request']>[0], quiet = false) => {
    setError('');
    // The new game opens here at once (not in a "game ready" banner) when it starts.
    app.rematchOf = body.cancelSeek ? null : game.id;
    try {
      const r = await app.conn.request(body);
      if (body.acceptSeek && r.reply?.gameId) app.navigate(`#/game/${encodeURIComponent(r.reply.gameId)}`);
      else await reload();
    } catch (e) {
      // Our own offer may still be the one that starts the game (crossing offers: the opponent
      // accepted ours first, and the server made theirs void): keep waiting for it.
      const stillHere = app.route.page === 'game' && app.route.id === game.id;
      app.rematchOf = offered && !body.cancelSeek && stillHere ? game.id : null;
      if (!quiet) setError(errorText(e));
    }
  };

  return (
    <div class="rematch" data-testid="rematch-panel">
      {incoming ? (
        <>
          <span>{t('rematchOffered', { name: opponent.name ?? '' })}</span>
          <button class="primary" data-testid="accept-rematch" disabled={offline} title={offlineTitle} onClick={() => void act({ acceptSeek: { seekId: incoming.seekId } })}>
            {t('acceptRematch')}
          </button>
          <button data-testid="decline-rematch" disabled={offline} title={offlineTitle} onClick={() => void act({ cancelSeek: { seekId: incoming.seekId } })}>
            {t('declineChallenge')}
          </button>
        </>
      ) : offered ? (
        <>
          <span class="muted" data-testid="rematch-waiting">{t('rematchWaiting', { name: opponent.name ?? '' })}</span>
          <button data-testid="cancel-rematch" disabled={offline} title={offlineTitle} onClick={() => void act({ cancelSeek: { seekId: offered.seekId } })}>
            {t('cancel')}
          </button>
        </>
      ) : (
        <button
          data-testid="rematch"
          disabled={offline}
          title={offlineTitle}
          onClick={() =>
            void act({
              challenge: {
                userName: opponent.name ?? '',
                variant: st.variant,
                timeControl: st.timeControl,
                color: you === 'r' ? Side.BLACK : Side.RED,
                ruleset: st.ruleset,
                // A Jieqi rule: the server refuses it on Xiangqi unless it is the default.
                ...(st.variant === Variant.JIEQI ? { captureVisibility: st.captureVisibility } : {}),
                rated: st.rated,
                ruleOptions: st.ruleOptions,
              },
            })
          }
        >
          {t('rematch')}
        </button>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}

// The game's chat panel: this viewer's room (the players' or the spectators'; the server keeps
// them apart), and a line to write. Players of a tournament game have no chat (a note says so).
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GameModel } from '../game/model';
import { t } from '../i18n';

export function Chat({ game, tournament }: { game: GameModel; tournament: boolean }) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const spectator = !game.you;
  const closed = tournament && !spectator;

  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight; // the newest line in view
  }, [game.chat.length]);

  const send = async (e: Event) => {
    e.preventDefault();
    const line = text.trim();
    if (!line || sending) return;
    setSending(true);
    const why = await game.say(line);
    setSending(false);
    setError(why);
    if (!why) setText('');
  };

  return (
    <div class="panel chat" data-testid="chat" data-room={spectator ? 'spectators' : 'players'}>
      <h3>{spectator ? t('chatSpectators') : t('chat')}</h3>
      {closed ? (
        <p class="muted" data-testid="chat-closed">{t('chatNoneInTournaments')}</p>
      ) : (
        <>
          <ol class="chat-lines" ref={list} aria-live="polite">
            {game.chat.length === 0 && <li class="muted">{t('chatEmpty')}</li>}
            {game.chat.map((l) => (
              <li key={String(l.seq)} data-testid="chat-line">
                <b class="who">{l.from?.name}</b> <span class="text">{l.text}</span>
              </li>
            ))}
          </ol>
          {game.over ? <p class="muted small" data-testid="chat-over">{t('chatOver')}</p> : <form class="chat-form" onSubmit={send}>
            <input data-testid="chat-input" maxLength={200} value={text} placeholder={t('chatPlaceholder')}
                   onInput={(e) => setText((e.target as HTMLInputElement).value)} />
            <button type="submit" data-testid="chat-send" disabled={sending || !text.trim()}>{t('chatSend')}</button>
          </form>}
          {error && <p class="error" data-testid="chat-error" role="alert">{error}</p>}
        </>
      )}
    </div>
  );
}

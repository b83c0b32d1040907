// The game's chat panel: this viewer's room (the players' or the spectators'; the server keeps
// them apart), and a line to write. Players of a tournament game have no chat (a note says so).
// After the end the line stays open ("gg") until the server says the chat has closed.
// A reader may hide the chat altogether or mute a writer (game/chat_prefs.ts, this browser only).
import { useEffect, useRef, useState } from 'preact/hooks';
import { chatHidden, muteUser, mutedUsers, setChatHidden, unmuteAll } from '../game/chat_prefs';
import type { GameModel } from '../game/model';
import { t } from '../i18n';
import { errorProps } from './form_validity';

// `onReport` sends a line's report to the moderators; it resolves to '' or the reason it failed.
export function Chat({ game, tournament, me, onReport }: { game: GameModel; tournament: boolean; me?: string; onReport?: (seq: number) => Promise<string> }) {
  const [reported, setReported] = useState<Set<number>>(new Set());
  const [hidden, setHidden] = useState(chatHidden());
  const [muted, setMuted] = useState(() => new Set(mutedUsers()));
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

  const toggle = () => {
    setChatHidden(!hidden);
    setHidden(!hidden);
  };
  const mute = (userId: string) => {
    muteUser(userId);
    setMuted(new Set(mutedUsers()));
  };
  const shown = game.chat.filter((l) => !l.from?.userId || l.from.userId === me || !muted.has(l.from.userId));
  const silenced = game.chat.length - shown.length;

  // A line that comes from someone else is said once, "name: text", in a region of its own: a live
  // list said each new line with its buttons ("… hello there Mute Report"). The lines there when
  // the page opened (the history) are not news.
  const [said, setSaid] = useState('');
  const heard = useRef<number | null>(null);
  useEffect(() => {
    const newest = game.chat.reduce((m, l) => Math.max(m, Number(l.seq)), 0);
    if (heard.current === null) {
      heard.current = newest;
      return;
    }
    const fresh = shown.filter((l) => Number(l.seq) > heard.current! && l.from?.userId !== me);
    heard.current = Math.max(heard.current, newest);
    if (fresh.length) setSaid(fresh.map((l) => `${l.from?.name ?? ''}: ${l.text}`).join(' '));
  }, [game.chat.length]);

  return (
    <div class="panel chat" data-testid="chat" data-room={spectator ? 'spectators' : 'players'} data-hidden={hidden ? '1' : '0'}>
      <div class="row spread">
        <h3>{spectator ? t('chatSpectators') : t('chat')}</h3>
        {!closed && (
          <button class="link small" data-testid="chat-toggle" onClick={toggle}>{hidden ? t('chatShow') : t('chatHide')}</button>
        )}
      </div>
      {closed ? (
        <p class="muted" data-testid="chat-closed">{t('chatNoneInTournaments')}</p>
      ) : hidden ? (
        <p class="muted small" data-testid="chat-hidden">{t('chatHiddenNote')}</p>
      ) : (
        <>
          <p class="sr-only" aria-live="polite" data-testid="chat-announce">{said}</p>
          <ol class="chat-lines" ref={list}>
            {shown.length === 0 && <li class="muted">{t('chatEmpty')}</li>}
            {shown.map((l) => (
              <li key={String(l.seq)} data-testid="chat-line">
                <b class="who">{l.from?.name}</b> <span class="text">{l.text}</span>
                {/* Mute and Report side by side: on a phone, where they are 40 px, they wrap as one. */}
                {l.from?.userId && l.from.userId !== me && (
                  <span class="line-actions">
                    <button class="link small mute" data-testid="chat-mute" title={t('chatMuteTitle', { name: l.from.name ?? '' })}
                            aria-label={t('chatMuteName', { name: l.from.name ?? '' })} onClick={() => mute(l.from!.userId!)}>{t('chatMute')}</button>
                    {onReport && (reported.has(Number(l.seq)) ? (
                      <span class="muted small mute" data-testid="chat-reported">{t('chatReported')}</span>
                    ) : (
                      <button class="link small mute" data-testid="chat-report" title={t('chatReportTitle')}
                              aria-label={t('chatReportName', { name: l.from?.name ?? '' })} onClick={() => {
                        if (!window.confirm(t('chatReportConfirm', { name: l.from?.name ?? '' }))) return;
                        void onReport(Number(l.seq)).then((why) => {
                          setError(why);
                          if (!why) setReported(new Set([...reported, Number(l.seq)]));
                        });
                      }}>{t('chatReport')}</button>
                    ))}
                  </span>
                )}
              </li>
            ))}
          </ol>
          {silenced > 0 && (
            <p class="muted small" data-testid="chat-muted-note">
              {t('chatMutedLines', { n: silenced })}{' '}
              <button class="link small" data-testid="chat-unmute-all" onClick={() => { unmuteAll(); setMuted(new Set()); }}>{t('chatUnmuteAll')}</button>
            </p>
          )}
          {game.over && (game.chatClosed || game.archived) ? <p class="muted small" data-testid="chat-over">{t('chatOver')}</p> : <form class="chat-form" onSubmit={send}>
            <input data-testid="chat-input" {...errorProps('chat-error', !!error)} maxLength={200} value={text} aria-label={t('chatPlaceholder')} placeholder={t('chatPlaceholder')}
                   onInput={(e) => setText((e.target as HTMLInputElement).value)} />
            <button type="submit" data-testid="chat-send" disabled={sending || !text.trim()}>{t('chatSend')}</button>
          </form>}
          {error && <p class="error" id="chat-error" data-testid="chat-error" role="alert">{error}</p>}
        </>
      )}
    </div>
  );
}

// A line from someone else that came while the chat panel was off the screen (on a phone it is far
// below the board): the game page says so near its status, and a tap brings the chat into view.
// Lines there when the page opened, one's own, muted writers' and a hidden chat's do not count.
export function ChatUnread({ game, me }: { game: GameModel; me?: string }) {
  const [unread, setUnread] = useState(0);
  // The last line looked at (by seq); lines written before the page got the game are its history.
  const seen = useRef(0);
  const panel = () => document.querySelector<HTMLElement>('[data-testid=chat]');
  const inView = (el: HTMLElement | null) => {
    if (!el) return true;
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  };
  useEffect(() => {
    const before = seen.current;
    seen.current = game.chat.reduce((m, l) => Math.max(m, Number(l.seq)), before);
    if (!game.openedAtServerMs || chatHidden() || inView(panel())) return;
    const muted = new Set(mutedUsers());
    const fresh = game.chat.filter((l) => Number(l.seq) > before && Number(l.atMs) > game.openedAtServerMs &&
                                          !!l.from?.userId && l.from.userId !== me && !muted.has(l.from.userId));
    if (fresh.length) setUnread((n) => n + fresh.length);
  }, [game.chat]);
  useEffect(() => {
    if (!unread) return;
    const check = () => {
      if (inView(panel())) setUnread(0);
    };
    window.addEventListener('scroll', check, { passive: true });
    return () => window.removeEventListener('scroll', check);
  }, [unread > 0]);
  if (!unread) return null;
  return (
    <button class="link chat-unread" data-testid="chat-unread" data-count={unread}
            onClick={() => { panel()?.scrollIntoView({ block: 'center' }); setUnread(0); }}>
      {t('chatUnread', { n: unread })}
    </button>
  );
}

// "Type a move": a move typed as two squares (h2e2, as the move list's ICCS), played on Enter the
// way a click on the board plays it, or refused in words. For keyboard and screen-reader users,
// and anyone faster at typing. The client sends a move as its two squares only (GameModel.move):
// the server turns up a face-down Jieqi piece and names it, so letters after the squares (the
// move list's h2e2C) are accepted and left out.
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { parseIccs, type Color, type Position, type Square } from '../rules/board';
import { illegalReason } from '../rules/movegen';

export function MoveEntry({ position, movable, onMove }: { position: Position; movable: Color | null; onMove: (from: Square, to: Square) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    const typed = text.trim();
    if (!typed) return;
    const why = refusal(position, movable, typed);
    setError(why);
    if (why) return;
    const m = parseIccs(typed.toLowerCase())!;
    setText('');
    onMove(m.from, m.to);
  };
  return (
    <form class="move-entry row" data-testid="move-entry" onSubmit={submit}>
      <label>
        {t('typeMove')}{' '}
        <input
          data-testid="move-entry-input"
          value={text}
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          size={8}
          aria-describedby="move-entry-help"
          aria-invalid={error ? 'true' : undefined}
          onInput={(e) => {
            setText((e.target as HTMLInputElement).value);
            setError('');
          }}
        />
      </label>
      <button type="submit" data-testid="move-entry-play">{t('playTyped')}</button>
      <span class="sr-only" id="move-entry-help">{t('typeMoveHelp')}</span>
      {/* Always there, so that a refusal is read out when it comes. */}
      <span class={error ? 'error' : undefined} role="alert" data-testid="move-entry-error">{error}</span>
    </form>
  );
}

// Why the typed move cannot be played now, or '' if it can.
function refusal(position: Position, movable: Color | null, typed: string): string {
  const m = /^[a-i][0-9][a-i][0-9][a-z]{0,2}$/i.test(typed) ? parseIccs(typed.toLowerCase()) : null;
  if (!m) return t('typedNotAMove', { text: typed });
  if (!movable || position.turn !== movable) return t('typedNotYourMove');
  const move = typed.slice(0, 4).toLowerCase();
  const why = illegalReason(position, m.from, m.to);
  if (why === 'check') return t('typedIllegalCheck', { move });
  if (why) return t('typedIllegal', { move });
  return '';
}

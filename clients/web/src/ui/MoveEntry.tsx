// "Type a move": a move typed as two squares (h2e2, as the move list's ICCS) or by its Chinese
// name (炮二平五: rules/typed_move.ts), played on Enter the way a click on the board plays it, or
// refused in words. For keyboard and screen-reader users, and anyone faster at typing. The client
// sends a move as its two squares only (GameModel.move): the server turns up a face-down Jieqi
// piece and names it, so letters after the squares (the move list's h2e2C) are accepted and left
// out.
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { type Color, type Position, type Square } from '../rules/board';
import { illegalReason } from '../rules/movegen';
import { parseTypedMove, type TypedMove } from '../rules/typed_move';
import { zhParts } from './lang';

export function MoveEntry({ position, movable, onMove }: { position: Position; movable: Color | null; onMove: (from: Square, to: Square) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    const typed = text.trim();
    if (!typed) return;
    const parsed = parseTypedMove(position, typed);
    const why = refusal(position, movable, typed, parsed);
    setError(why);
    if (why || (parsed.kind !== 'iccs' && parsed.kind !== 'chinese')) return;
    setText('');
    onMove(parsed.move.from, parsed.move.to);
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
      <span class="sr-only" id="move-entry-help">{zhParts(t('typeMoveHelp'))}</span>
      {/* Always there, so that a refusal is read out when it comes. */}
      <span class={error ? 'error' : undefined} role="alert" data-testid="move-entry-error">{zhParts(error)}</span>
    </form>
  );
}

// Why the typed move cannot be played now, or '' if it can.
function refusal(position: Position, movable: Color | null, typed: string, parsed: TypedMove): string {
  if (parsed.kind === 'none') return t('typedNotAMove', { text: typed });
  if (!movable || position.turn !== movable) return t('typedNotYourMove');
  if (parsed.kind === 'unknown-chinese') return t('typedNoSuchMove', { text: typed });
  if (parsed.kind === 'chinese') return ''; // the name of one of the legal moves
  const move = typed.slice(0, 4).toLowerCase();
  const why = illegalReason(position, parsed.move.from, parsed.move.to);
  if (why === 'check') return t('typedIllegalCheck', { move });
  if (why) return t('typedIllegal', { move });
  return '';
}

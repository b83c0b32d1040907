// One side's clock, redrawn ten times a second from the last server reading. A timer named with
// its side ("Red clock 0:18"): a bare "0:18" next to a name did not say whose it was. A timer is
// no live region, so the ticks are not read out (the announcer says when one's own time runs low).
// While the page's own link is down the clock stands still, greyed, and its name says it is paused
// (GameModel.reconnecting): the time it shows is the last the page knew, not the server's.
import { useEffect, useState } from 'preact/hooks';
import type { GameModel } from '../game/model';
import { t } from '../i18n';
import type { Color } from '../rules/board';
import { clockText } from './format';

export function Clock({ game, color }: { game: GameModel; color: Color }) {
  const [, setTick] = useState(0);
  const running = game.clock.running === color && !game.over;
  useEffect(() => {
    if (!running) return;
    const id = window.setInterval(() => setTick((x) => x + 1), 100);
    return () => window.clearInterval(id);
  }, [running]);
  const paused = game.reconnecting && !game.over;
  const ms = game.clockNow(color);
  const time = clockText(ms);
  return (
    <span
      class={`clock ${running ? 'running' : ''} ${ms < 20_000 ? 'low' : ''} ${paused ? 'paused' : ''}`}
      role="timer"
      aria-label={t(paused ? 'clockLabelPaused' : 'clockLabel', { side: t(color === 'r' ? 'red' : 'black'), time })}
      title={paused ? t('clockPausedTitle') : undefined}
      data-testid={`clock-${color === 'r' ? 'red' : 'black'}`}
      data-ms={Math.round(ms)}
    >
      {time}
    </span>
  );
}

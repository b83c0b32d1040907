// One side's clock, redrawn ten times a second from the last server reading. A timer named with
// its side ("Red clock 0:18"): a bare "0:18" next to a name did not say whose it was. A timer is
// no live region, so the ticks are not read out (the announcer says when one's own time runs low).
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
  const ms = game.clockNow(color);
  const time = clockText(ms);
  return (
    <span
      class={`clock ${running ? 'running' : ''} ${ms < 20_000 ? 'low' : ''}`}
      role="timer"
      aria-label={t('clockLabel', { side: t(color === 'r' ? 'red' : 'black'), time })}
      data-testid={`clock-${color === 'r' ? 'red' : 'black'}`}
      data-ms={Math.round(ms)}
    >
      {time}
    </span>
  );
}

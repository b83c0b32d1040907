// One side's clock, redrawn ten times a second from the last server reading.
import { useEffect, useState } from 'preact/hooks';
import type { GameModel } from '../game/model';
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
  return (
    <span class={`clock ${running ? 'running' : ''} ${ms < 20_000 ? 'low' : ''}`} data-testid={`clock-${color === 'r' ? 'red' : 'black'}`} data-ms={Math.round(ms)}>
      {clockText(ms)}
    </span>
  );
}

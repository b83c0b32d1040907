// The order of the lobby's "Open seeks": people's seeks first, the computer players' after them.
// The computers' seeks are always open and are offered in their own panel above ("Play the
// computer"); listed among people's (the server sends all in id order) half a dozen of them would
// push a person's seek below the fold on a phone. Otherwise the server's order stands (it puts the
// viewer's own seeks and challenges to the viewer first).
import type { Seek } from '../net/proto';

export function peopleFirst(seeks: readonly Seek[]): Seek[] {
  const isBot = (s: Seek) => !!s.owner?.bot;
  return [...seeks.filter((s) => !isBot(s)), ...seeks.filter(isBot)];
}

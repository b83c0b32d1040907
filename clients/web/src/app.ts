// Application-wide state: the one connection, the signed-in user, the open game models, and the
// hash route (#/, #/game/ID, #/tournaments, #/admin) so the server only has to serve index.html.
import { GameModel } from './game/model';
import { Connection, defaultUrl, type LinkStatus } from './net/connection';
import type { GameState } from './net/proto';
import { Observable } from './store';

export type Route =
  | { page: 'lobby' }
  | { page: 'game'; id: string }
  | { page: 'tournaments'; id?: string }
  | { page: 'admin' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'game' && parts[1]) return { page: 'game', id: decodeURIComponent(parts[1]) };
  if (parts[0] === 'tournaments') return { page: 'tournaments', id: parts[1] };
  if (parts[0] === 'admin') return { page: 'admin' };
  return { page: 'lobby' };
}

export class App extends Observable {
  readonly conn: Connection;
  route: Route = parseRoute(location.hash);
  link: LinkStatus = 'connecting';
  private games = new Map<string, GameModel>();

  constructor(url = defaultUrl()) {
    super();
    this.conn = new Connection(url);
    this.conn.onStatus((s) => {
      this.link = s;
      this.changed();
    });
    // A game we play has started (our seek was accepted, or we accepted one): open it.
    this.conn.onMessage((m) => {
      if (m.body === 'gameStarted' && m.gameStarted) {
        const st = m.gameStarted as GameState;
        if (!this.games.has(st.gameId)) this.games.set(st.gameId, new GameModel(this.conn, st.gameId, st));
        this.navigate(`#/game/${encodeURIComponent(st.gameId)}`);
      }
    });
    window.addEventListener('hashchange', () => {
      this.route = parseRoute(location.hash);
      this.changed();
    });
  }

  get user() {
    return this.conn.user;
  }

  navigate(hash: string) {
    if (location.hash !== hash) location.hash = hash;
    this.route = parseRoute(hash);
    this.changed();
  }

  game(id: string): GameModel {
    let g = this.games.get(id);
    if (!g) {
      g = new GameModel(this.conn, id);
      this.games.set(id, g);
    }
    // Keep following only the games we still play; watched and finished ones are dropped (the
    // protocol has no "unwatch", so their pushes are simply ignored from now on).
    for (const [other, m] of this.games) {
      if (other !== id && (m.over || !m.you)) {
        m.dispose();
        this.games.delete(other);
      }
    }
    return g;
  }

  notify() {
    this.changed();
  }
}

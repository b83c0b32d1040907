// Tunables of the server, filled from the command line (main.cpp).
#pragma once
#include <cstdint>
#include <string>

#include "game/chat_filter.h"
#include "net/client_address.h"

namespace gs {

struct ServerOptions {
  // Open client sockets (HTTP and WebSocket) at most; one more is accepted and closed at once, so
  // that the process keeps file descriptors for Redis: with every descriptor taken by clients, its
  // Redis connections could not reconnect and every move failed with STORAGE_UNAVAILABLE. main()
  // sets it from RLIMIT_NOFILE (less a reserve); 0: no cap.
  int64_t max_sockets = 0;
  // Open WebSocket connections from one client address (net/address_limit.h; loopback is not
  // counted); more are refused with 429. 0: no limit. A club behind one NAT address has one
  // connection per player and tab.
  int64_t max_connections_per_address = 200;
  size_t max_frame_bytes = 8 * 1024;        // larger frames get TOO_LARGE (connection kept)
  size_t hard_frame_bytes = 1024 * 1024;    // larger frames close the connection (Beast limit)
  double rate_per_second = 20;              // token bucket refill per connection
  double rate_burst = 40;                   // token bucket size
  int64_t claim_after_ms = 30'000;          // opponent gone this long → claim_victory allowed
  // A game outside tournaments whose side to move has not made its first move this long after its
  // turn began (Red: the game's start; Black: Red's first move) is aborted, unrated: a player who
  // never came does not hold the other for a whole clock (GameConfig::first_move_ms). 0: never.
  int64_t first_move_ms = 30'000;
  // A WebSocket that sends nothing (not even a pong to the server's ping, sent halfway) this long is
  // closed: a dead link (lost Wi-Fi, a frozen client) frees its socket and counts as gone.
  int64_t idle_timeout_ms = 30'000;
  // The same for a connection whose application pings come regularly (two within this period; the
  // web client pings every 5 s): a silence of a few seconds is already unusual there, so a dead
  // link is found in 12-18 s rather than 30-45 s, and the opponent of a phone that lost its network
  // sees it gone sooner. Still a WebSocket ping first, which a frozen tab's browser answers: only a
  // dead link is closed. 0: off.
  int64_t heartbeat_idle_ms = 12'000;
  int64_t login_deadline_ms = 30'000;        // a connection not signed in by then is closed
  // A client further behind than this (frames or bytes queued for it) is not reading: its socket
  // is closed. Bytes matter as much as frames: one seek list can be kilobytes.
  size_t send_queue_frames = 2048;
  size_t send_queue_bytes = 4 * 1024 * 1024;
  // Open seeks + challenges per user: every change pushes the whole seek list to every lobby
  // watcher, so unbounded seeks let one client make each push (and every queue) huge.
  size_t max_seeks_per_user = 10;
  // ... and per client address (its block; loopback is not counted), on every node together: guests
  // cost nothing to make, so without it one host filled the lobby's 200 listed seeks and hid most
  // players' seeks (security review, 2026-12-04). 0: no limit. A club behind one NAT address
  // seeking at once needs more.
  size_t max_seeks_per_address = 30;
  // Games one connection may follow at once as a spectator (watch_game, sync): each costs a
  // subscription on its node and a copy of every event (security review, 2026-12-04: one
  // connection watched any number). A player's own games are never refused for it. 0: no limit.
  size_t max_followed_games = 64;
  // Seek-list pushes are coalesced: at most one per this period (the first change after a quiet
  // period goes out at once). Each push is one frame to every lobby watcher (a connection that asked
  // for the seek list), so pushing on every change costs (changes x watchers) frames while a busy
  // lobby churns.
  int64_t seek_push_interval_ms = 100;
  // Pushes are spaced so that they send at most this many frames per second on average (one
  // frame per lobby watcher per push): 20,000 watchers get a push every second. 0: no limit.
  int64_t seek_push_frames_per_s = 20000;
  // Niceness of the threads for slow work (sign-in, lobby, seek pushes, archives): above 0, a busy
  // machine runs the moves first.
  int background_nice = 0;
  uint64_t max_catchup_events = 100;        // larger gaps get a full state instead
  // Finished games stay in memory this long for late syncs (after that a sync is served from
  // Redis). Memory grows with finished games per second × this: at 10,000 moves/s ~20 games end per
  // second, ~150 KB each.
  int64_t finished_linger_ms = 2 * 60'000;
  // A finished game's events and config stay in Redis this long after it ended (0: for ever), for
  // syncs and watches that replay it; then only its archive record (GET /api/games/{id}) is kept,
  // which the web client replays instead. About two thirds of a game's Redis memory.
  int64_t finished_replay_ms = 7LL * 24 * 3600 * 1000;
  ChatFilter chat_filter;  // words refused in chat lines (--chat-blocked-words)
  TrustedProxies trusted_proxies;  // whose X-Forwarded-For names the client (net/client_address.h)
  std::string admin_token;
  // --metrics-token: when set, GET /metrics answers only a request bearing it or the admin token
  // (a scraper's credential that opens nothing else); empty: /metrics is open, as Prometheus expects.
  std::string metrics_token;
  std::string static_dir;
  std::string redis_url;
  // Several nodes (docs/ARCHITECTURE.md): this node's unique name, its heartbeat lease (its games
  // are taken over when it lapses) and how often it is renewed (and dead nodes' games taken over).
  std::string node_id = "local";
  int64_t lease_ms = 5000;
  int64_t tick_ms = 1000;  // the renewal and dead-node check period
  // A request forwarded to a game's owner node and not answered this long (the owner stalled: a
  // frozen process or host keeps its lease for a while) gets NODE_NOT_ANSWERING from this node,
  // checked once a tick.
  int64_t forward_timeout_ms = 5000;
};

}  // namespace gs

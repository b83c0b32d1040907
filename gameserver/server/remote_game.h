// A game of another node that a connection here follows: where it is served and how far the
// client got. Kept per connection by the Hub; pure so that its rules are tested without nodes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

namespace gs {

struct RemoteGame {
  std::string node;  // the owner the requests go to ("" after a request it did not hear)
  uint64_t version = 0;  // the last event passed on (or the version the client synced from)
  bool playing = false;  // as one of its players (no seek-list pushes meanwhile)
  int64_t client_asked_ms = 0;  // when the client's own request about it last went out (steady ms)
  // The owner announced a restart since: it no longer serves this connection, which must catch up
  // there before anything else (Hub::game_request).
  bool owner_restarted = false;

  // The client syncs from `last_version`: it says what it has, so what follows is sent again even
  // if it was passed on before.
  void synced_from(uint64_t last_version) { version = last_version; }

  // A frame of the game at `v` arrives from the owner. A pushed event (not an answer to a request)
  // at or below the version already passed on is a repeat: a follow's sync and the client's own,
  // or a follow's sync and a live event, were in flight at once. Returns whether to pass it on.
  bool pass(uint64_t v, bool pushed_event) {
    if (pushed_event && v <= version) return false;
    version = std::max(version, v);
    return true;
  }
};

}  // namespace gs

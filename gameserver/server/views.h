// Renders a game for one viewer as protocol messages. All Jieqi redaction is delegated to
// xq::view_of / xq::view_of_move; nothing here reads the full position of a Jieqi game.
#pragma once
#include "game/game_session.h"
#include "rules/view.h"
#include "xq.pb.h"

namespace gs {

xq::Viewer viewer_for(const GameConfig& c, const std::string& user_id);  // Spectator if not a player
xq::v1::Side to_side(xq::Color c);
xq::v1::Variant to_variant(xq::Variant v);
void fill_player(xq::v1::Player* out, const PlayerInfo& p);
void fill_live_clock(xq::v1::ClockState* out, const GameSession& s, Millis now, int64_t wall);  // every field: id, name, guest, rating, bot
void fill_rule_options(xq::v1::RuleOptions* out, const RuleOptions& o);  // leaves defaults unset
RuleOptions rule_options_from(const xq::v1::RuleOptions& in);             // unset = defaults

// now: steady ms (running clock); wall: epoch ms (server_time_ms).
xq::v1::GameState state_for(const GameSession& s, xq::Viewer v, Millis now, int64_t wall);
// `latest`: the event is the newest one: attach the current FEN and live clock.
xq::v1::GameEvent event_for(const GameSession& s, const GameEvent& e, xq::Viewer v, bool latest, Millis now,
                            int64_t wall);
xq::v1::GameSummary summary_of(const GameSession& s);

}  // namespace gs

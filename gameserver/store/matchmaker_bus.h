// The Redis streams and keys through which the matchmaker and the game servers talk, in one place.
// Every name starts with the hash tag "{xq}:", written "xq:" below for short (gameserver/store/keys.h).
//
//   xq:mm:commands      STREAM  API → matchmaker. Fields: id (unique command id), body (JSON with "cmd").
//                               Consumer group "matchmaker".
//   xq:mm:reply:{id}    LIST    matchmaker → API: one JSON reply per command ({"ok":true,…} or
//                               {"ok":false,"code":…,"message":…}); expires after a minute.
//   xq:games:create     STREAM  matchmaker → game servers. Fields: game_id, body (JSON game spec).
//                               Consumer group "gameservers"; creation is idempotent by game_id.
//   xq:games:results    STREAM  game servers → matchmaker. Fields: game_id, body (JSON: event_id,
//                               outcome red-wins|black-wins|draw|aborted, reason, red_fouls,
//                               black_fouls). Consumer group "matchmaker".
//   xq:mm:notify        PUBSUB  live notices for connected players (new round, your game is ready,
//                               standings changed): JSON {event_id, kind, users, game_id, text}.
//   xq:mm:event:{id}    STRING  the tournament as JSON (tournament_json.h); beside it the views the
//                               API serves (:public, :standings, :crosstable, :trf) and, once the
//                               event is cancelled, :cancelled ("1": the game servers create none
//                               of its games any more).
//   xq:mm:events        ZSET    event ids scored by creation time (ms).
//   xq:mm:club:{id}     STRING  club JSON {id, name, organisers[], members[]}.
//   xq:mm:clubs         SET     club ids.
//   xq:mm:clubs_deleted SET     ids of deleted clubs, never given to a new club: the finished
//                               events of a deleted club still name its id, and a new club of
//                               that id would pass their running to its organisers.
//   xq:mm:pools         SET     names of quick-pairing pools ("jieqi:900000+0").
//   xq:mm:pool:{name}   HASH    user id → JSON {rating, joined_ms, name}.
//   xq:mm:pool_avoid:{user}  STRING  game servers → matchmaker: the opponent of the user's last
//                               pool game if it was aborted; the two are not paired again while it
//                               lasts (kPoolAvoidMs).
//   xq:mm:pool_paired:{user} STRING  matchmaker → itself: the game id the user was just paired into
//                               from a pool; a pool join is refused while it stands (the game may
//                               not be live on any node yet). Dropped by the game's archive, else
//                               it lapses after kPoolPairedMs (the game is live by then).
#pragma once
#include <cstdint>
#include <string>

namespace xq::bus {

inline const std::string kCommands = "{xq}:mm:commands";
inline const std::string kGameCreate = "{xq}:games:create";
inline const std::string kGameResults = "{xq}:games:results";
inline const std::string kNotify = "{xq}:mm:notify";
inline const std::string kEvents = "{xq}:mm:events";
inline const std::string kClubs = "{xq}:mm:clubs";
inline const std::string kClubsDeleted = "{xq}:mm:clubs_deleted";
inline const std::string kPools = "{xq}:mm:pools";
// The lease of the one matchmaker that acts (its instance token; PX = the lease time).
inline const std::string kLeader = "{xq}:mm:leader";
inline const std::string kMatchmakerGroup = "matchmaker";
inline const std::string kGameserverGroup = "gameservers";
inline std::string reply(const std::string& command_id) { return "{xq}:mm:reply:" + command_id; }
inline std::string event(const std::string& id) { return "{xq}:mm:event:" + id; }
inline std::string club(const std::string& id) { return "{xq}:mm:club:" + id; }
inline std::string pool(const std::string& name) { return "{xq}:mm:pool:" + name; }
inline std::string pool_avoid(const std::string& user) { return "{xq}:mm:pool_avoid:" + user; }
inline constexpr int64_t kPoolAvoidMs = 120'000;
inline std::string pool_paired(const std::string& user) { return "{xq}:mm:pool_paired:" + user; }
inline constexpr int64_t kPoolPairedMs = 60'000;

}  // namespace xq::bus

// Every Redis key this server uses, in one place. All keys share the prefix "{xq}:": the hash tag
// puts them all in one slot of a Redis Cluster (store/redis_endpoint.h), so every Lua script's keys
// are together. Below the tag is left out for short: "xq:game:{id}:meta" is "{xq}:game:<id>:meta".
// Keys written before the tag ("xq:…") are renamed at start (store/key_migration.h).
//
//   xq:game:{id}:meta     STRING  game config JSON (players, variant, ruleset, time control,
//                                 Jieqi assignment + salt + commitment). Written once at creation.
//                                 meta, events, snap and resumed expire --finished-replay-s after
//                                 the game ended (7 days); the archive record and the id's place in
//                                 xq:games:finished stay for ever.
//   xq:game:{id}:events   LIST    event JSON, index i = version i+1. Appended (with the snapshot when it
//                                 goes along) by one Lua script that checks the expected length, so an
//                                 event is durable before any client hears of it.
//   xq:game:{id}:snap     STRING  snapshot JSON {version, plies, red_ms, black_ms, result, spectators}: what
//                                 other nodes' game lists show. Written with the first append, the last,
//                                 a change of watchers, else at most once a second (GameActor::store);
//                                 the events are the truth.
//   xq:game:{id}:present  SET     "red" / "black": the players who have connected to a tournament game
//                                 that has a no-show rule (who came decides the forfeit), so a node
//                                 that reloads or takes over the game knows it. Dropped at archive.
//   xq:game:{id}:away     HASH    "red" / "black" → wall time (ms) that player's last connection to the
//                                 game left; gone when the player is back. A node that reloads or takes
//                                 over the game keeps the claim_victory timing. Dropped at archive.
//   xq:game:{id}:chat     LIST    chat lines JSON (both rooms), the last 100; expires 30 days after
//                                 the last line. Read back when a node loads the game.
//   xq:chat:reports       LIST    chat lines reported to the moderators (newest first, the last 1,000).
//   xq:games:live         SET     ids of games not yet finished (reloaded at startup).
//   xq:games:finished     ZSET    ids of finished games scored by end time (ms).
//   xq:archive:{id}       STRING  full record of a finished game (GET /api/games/{id}).
//   xq:usergames:{user}   ZSET    a player's finished games (ids by end time, ms), the latest
//                                 kUserGamesKept (GET /api/users/{id}/games). Written with the record.
//   xq:user:{lower name}  STRING  registered account JSON {id, name, salt, hash, created_ms}.
//   xq:sessionsfrom:{user} STRING the account's last password change (ms): older tokens are refused.
//   xq:accountids         HASH    account id → lower name, written with the account: tells an
//                                 account id from a typo (a ban of an id no account has is refused).
//   xq:accountids:complete STRING "1" once the accounts made before the index are in it
//                                 (Auth::index_accounts, at start).
//   xq:banned             SET     banned user ids.
//   xq:roles              HASH    user id → "organiser" | "admin" (absent: "player"); set by an admin.
//   xq:rating:{variant}:{user}  STRING  Glicko-2 rating JSON {rating, deviation, volatility, games}.
//   xq:rated:{id}         STRING  marks a game whose result has been applied to ratings (30 days).
//   xq:leaderboard:{variant}  ZSET  user id → rating, every player with a rated result in the variant.
//   xq:accountnames       HASH    user id → account name, written with each rated result (the leaderboard's names).
//   xq:game:{id}:owner    STRING  node id of the game's owner. No expiry: the claim holds while
//                                 that node's heartbeat lives; a claim of a game whose owner is
//                                 dead moves it (store/game_leases.cpp). The append script refuses
//                                 a node the key does not name.
//   xq:node:{node}        CHANNEL pub/sub: requests forwarded to this node, frames sent back to its
//                                 connections, closes (server/node_wire.h).
//   xq:node:{node}:alive  STRING  heartbeat of a running node (PX = lease time, renewed every tick).
//   xq:node:{node}:games  SET     ids of the games the node owns (what a survivor takes over).
//   xq:node:{node}:online HASH    user name → user id of the users connected to the node (direct
//                                 challenges across nodes; store/presence.h).
//   xq:nodes:known        SET     nodes that may own games or users; a dead node leaves it once
//                                 its games are taken over.
//   xq:nodes              CHANNEL pub/sub broadcast to every node (seek list changed, notices).
//   xq:seeks              HASH    open seeks and challenges of every node: id → seek JSON + node.
//   xq:seek:{id}:superseded STRING a challenge made moot by another between the same players
//                                 (PX one minute): its accept is refused.
//   xq:games:create, xq:games:results, xq:mm:*   shared with the matchmaker: see
//                                 gameserver/store/matchmaker_bus.h (the streams' one description).
#pragma once
#include <cstdint>
#include <string>

namespace gs::keys {

inline std::string game_meta(const std::string& id) { return "{xq}:game:" + id + ":meta"; }
inline std::string game_events(const std::string& id) { return "{xq}:game:" + id + ":events"; }
inline std::string game_snap(const std::string& id) { return "{xq}:game:" + id + ":snap"; }
inline std::string game_owner(const std::string& id) { return "{xq}:game:" + id + ":owner"; }
inline std::string game_present(const std::string& id) { return "{xq}:game:" + id + ":present"; }
inline std::string game_away(const std::string& id) { return "{xq}:game:" + id + ":away"; }
// The game's chat lines (JSON, codec.h encode_chat), the last 100 of both rooms; kept 30 days after
// the last line (for a moderator to read), through reloads and takeovers.
inline std::string game_chat(const std::string& id) { return "{xq}:game:" + id + ":chat"; }
inline constexpr int kChatLinesKept = 100;
inline constexpr int64_t kChatKeptMs = 30LL * 24 * 3600 * 1000;
// Chat lines readers reported to the moderators (server/chat_reports.h): report JSON, newest first,
// the last kChatReportsKept; one report per line (a marker held as long as the line); reports per
// reader and per client address in the current hour.
inline const std::string kChatReports = "{xq}:chat:reports";
inline constexpr int kChatReportsKept = 1000;
inline std::string chat_reported(const std::string& game_id, uint64_t seq) {
  return "{xq}:chat:reported:" + game_id + ":" + std::to_string(seq);
}
inline std::string chat_report_tries(const std::string& user_id) { return "{xq}:chat:reporttries:" + user_id; }
inline std::string chat_report_tries_from(const std::string& address) { return "{xq}:chat:reportsfrom:" + address; }
// "plies:at_ms:used_ms": the game was last resumed (restart, takeover) during that turn, with that much of
// it charged; a second resumption in the same turn charges only the time run since (held a day).
inline std::string game_resumed(const std::string& id) { return "{xq}:game:" + id + ":resumed"; }
// {"outcome","reason"}: an event game the matchmaker decided (a disqualification) or ended (a
// cancel) before any node had created it; its creation ends it so (Hub::decide_at_creation). A day.
inline std::string game_decided(const std::string& id) { return "{xq}:game:" + id + ":decided"; }
inline constexpr int64_t kDecidedKeptMs = 24LL * 3600 * 1000;
inline std::string node_channel(const std::string& node) { return "{xq}:node:" + node; }
// Lua scripts build the keys of other nodes from this prefix (+ ":alive", ":games", ":online").
inline const std::string kNodePrefix = "{xq}:node:";
inline std::string node_alive(const std::string& node) { return kNodePrefix + node + ":alive"; }
inline std::string node_games(const std::string& node) { return kNodePrefix + node + ":games"; }
inline std::string node_online(const std::string& node) { return kNodePrefix + node + ":online"; }
// Wall ms of the node's last heartbeat or clean stop: until when it ran its games (a node taking one
// up charges the side to move that much of the turn; game/clock_resume.h). Kept a week.
inline std::string node_seen(const std::string& node) { return kNodePrefix + node + ":seen"; }
// A guest name being signed in, held for seconds: two nodes never give one name to two guests.
inline std::string guest_name_claim(const std::string& name) { return "{xq}:guestname:" + name; }
inline const std::string kKnownNodes = "{xq}:nodes:known";
inline const std::string kNodesChannel = "{xq}:nodes";
inline const std::string kSeeks = "{xq}:seeks";
// Set for a minute when a challenge between the same two players was accepted while this one was
// open (crossing rematch offers): accepting it is refused (Hub::supersede_other_challenges).
inline std::string superseded_seek(const std::string& id) { return "{xq}:seek:" + id + ":superseded"; }
inline const std::string kLiveGames = "{xq}:games:live";
inline const std::string kFinishedGames = "{xq}:games:finished";
inline std::string archive(const std::string& id) { return "{xq}:archive:" + id; }
inline std::string user_games(const std::string& user_id) { return "{xq}:usergames:" + user_id; }
inline constexpr int kUserGamesKept = 1000;
inline std::string user(const std::string& lower_name) { return "{xq}:user:" + lower_name; }
// Wall time (ms) of the account's last password change: its tokens issued before are refused
// (kept as long as a token lives).
inline std::string sessions_from(const std::string& user_id) { return "{xq}:sessionsfrom:" + user_id; }
// The account's password changes in the current hour (Auth::change_password).
inline std::string password_changes(const std::string& user_id) { return "{xq}:pwchanges:" + user_id; }
// Wrong passwords for an account in the current minute, from all addresses and from one client
// address (Auth::login; one address cannot lock an account for the others).
inline std::string login_failures(const std::string& lower_name) { return "{xq}:loginfail:" + lower_name; }
inline std::string login_failures_from(const std::string& lower_name, const std::string& address) {
  return "{xq}:loginfail:" + lower_name + ":" + address;
}
// The answer to an admin action asked on one node for a game another node owns (seconds).
inline std::string admin_reply(const std::string& token) { return "{xq}:adminreply:" + token; }
// Join-code tries for an event from a client address in the current 10 minutes (server/tournament_api.cpp).
inline std::string join_code_tries(const std::string& event_id, const std::string& address) {
  return "{xq}:jointries:" + event_id + ":" + address;
}
// Accounts registered from a client address in the current hour (Auth::register_user).
inline std::string registrations_from(const std::string& address) { return "{xq}:newaccounts:" + address; }
inline const std::string kAccountIds = "{xq}:accountids";
inline const std::string kAccountIdsComplete = "{xq}:accountids:complete";
inline const std::string kBanned = "{xq}:banned";
inline const std::string kRoles = "{xq}:roles";
inline const std::string kBots = "{xq}:bots";  // account ids an admin marked as computer players
inline std::string rating(const std::string& variant, const std::string& user_id) {
  return "{xq}:rating:" + variant + ":" + user_id;
}
inline std::string rated_game(const std::string& id) { return "{xq}:rated:" + id; }
// The rated players of a variant by rating (user id → rating), and the accounts' names (user id →
// name): written with each rated result (RatingStore::apply), read by GET /api/leaderboard.
inline std::string leaderboard(const std::string& variant) { return "{xq}:leaderboard:" + variant; }
// A player's rating after each rated result in a variant, newest first, the last kRatingHistory
// kept: JSON {at, rating, game_id}. Written in the same step as the rating.
inline std::string rating_history(const std::string& variant, const std::string& user_id) {
  return "{xq}:ratinghist:" + variant + ":" + user_id;
}
inline const std::string kAccountNames = "{xq}:accountnames";
// "1" once the ratings stored before the leaderboards existed are on them (RatingStore::index_leaderboards).
inline const std::string kLeaderboardsComplete = "{xq}:leaderboard:complete";
}  // namespace gs::keys

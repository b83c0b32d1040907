// What xqbot is told on its command line (main.cpp fills it), and the parsing of its parts.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "xq.pb.h"

namespace xqbot {

// One seek the bot keeps open in the lobby: "xiangqi 600+5" (minutes are not used: seconds+seconds).
struct SeekSpec {
  xq::v1::Variant variant = xq::v1::XIANGQI;
  uint32_t initial_ms = 600'000;
  uint32_t increment_ms = 5'000;
  bool operator==(const SeekSpec&) const = default;
};

// "xiangqi 600+5,jieqi 300+3": a comma-separated list of `VARIANT SECONDS+INCREMENT_SECONDS`
// (variant xiangqi or jieqi, any case). Empty text = no seeks (the bot only takes challenges).
// Throws std::invalid_argument naming the bad part.
std::vector<SeekSpec> parse_seek_specs(const std::string& text);
std::string describe(const SeekSpec& s);  // "xiangqi 600+5"

struct ServerUrl {
  std::string host;
  uint16_t port = 80;
  std::string target = "/ws";
};
// ws://HOST[:PORT][/PATH]; nullopt for anything else (wss:// included: put a proxy in front).
std::optional<ServerUrl> parse_server_url(const std::string& url);

struct BotOptions {
  ServerUrl server;
  std::string name = "xqbot";
  std::string password;
  std::vector<SeekSpec> seeks;
  int64_t movetime_ms = 1000;   // upper bound per move
  int max_depth = 0;            // search depth in plies at most (0: as deep as the time allows); a weaker player
  int max_games = 8;            // concurrent games; at the limit no seeks are open and challenges are declined
  int64_t max_seconds = 0;      // stop after this long (0 = run until signalled)
  int64_t claim_after_s = 60;   // claim victory when the opponent has been gone this long (0 = never)
  int64_t poll_ms = 2000;       // how often the seek list is asked for (a player gets no lobby pushes)
  int64_t min_initial_s = 60;   // challenges with less initial time are declined (see main.cpp)
  int frames_per_s = 16;        // outgoing frames, sustained, bursts of twice that (the server allows 20, 40)
  // Where the account's user id is written once signed in: the operator marks this account (by
  // id) as the computer player, not whichever account holds the name (someone may have taken it).
  std::string user_id_file;
};

}  // namespace xqbot

#include "game/record_text.h"

#include <boost/json.hpp>
#include <cstdio>
#include <ctime>
#include <sstream>

namespace json = boost::json;

namespace gs {
namespace {

std::string field(const json::object& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end()) return "";
  if (it->value().is_string()) return std::string(it->value().as_string());
  if (it->value().is_int64() || it->value().is_uint64()) return std::to_string(it->value().to_number<int64_t>());
  return "";
}

int64_t number(const json::object& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && (it->value().is_int64() || it->value().is_uint64()) ? it->value().to_number<int64_t>() : 0;
}

// Tag values are quoted; a quote or backslash inside is escaped as in PGN.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c != '\n' && c != '\r') out += c;
  }
  return out + "\"";
}

std::string result_token(const std::string& outcome, const std::string& reason) {
  if (reason == "abort") return "*";  // never played out: no result (it read 1/2-1/2, review 2026-12-04)
  if (outcome == "red-wins") return "1-0";
  if (outcome == "black-wins") return "0-1";
  if (outcome == "draw") return "1/2-1/2";
  return "*";
}

std::string clock_text(int64_t ms) {
  if (ms < 0) ms = 0;
  const int64_t s = ms / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  return buf;
}

std::string date_of(int64_t ms) {
  if (ms <= 0) return "????.??.??";
  std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
  return buf;
}

// Seconds as PGN's TimeControl writes them, the milliseconds kept where there are any ("90.5").
std::string seconds_text(int64_t ms) {
  std::string text = std::to_string(ms / 1000);
  if (int64_t frac = ms % 1000; frac != 0) {
    char buf[8];
    std::snprintf(buf, sizeof buf, ".%03lld", static_cast<long long>(frac));
    std::string f = buf;
    while (f.back() == '0') f.pop_back();
    text += f;
  }
  return text;
}

std::string player_name(const json::object& o, const char* side) {
  auto it = o.find(side);
  if (it == o.end() || !it->value().is_object()) return "?";
  return field(it->value().as_object(), "name");
}

}  // namespace

std::string record_text(const std::string& record_json) {
  const json::value v = json::parse(record_json);
  const json::object& o = v.as_object();
  const bool jieqi = field(o, "variant") == "jieqi";
  const std::string result = result_token(field(o, "result"), field(o, "reason"));
  std::ostringstream out;
  auto tag = [&](const char* name, const std::string& value) { out << '[' << name << ' ' << quoted(value) << "]\n"; };

  tag("Game", jieqi ? "Jieqi" : "Chinese Chess");
  const auto* rated_field = o.if_contains("rated");
  const bool rated = rated_field && rated_field->is_bool() && rated_field->as_bool();
  tag("Event", !field(o, "event_id").empty() ? field(o, "event_id") : rated ? "Rated game" : "Casual game");
  tag("Rated", rated ? "yes" : "no");
  if (number(o, "round") > 0) tag("Round", std::to_string(number(o, "round")));
  tag("Date", date_of(number(o, "created_at_ms")));
  tag("Red", player_name(o, "red"));
  tag("Black", player_name(o, "black"));
  tag("Result", result);
  tag("Termination", field(o, "reason").empty() ? "unterminated" : field(o, "reason"));
  tag("TimeControl", seconds_text(number(o, "initial_ms")) + "+" + seconds_text(number(o, "increment_ms")));
  tag("Ruleset", field(o, "ruleset").empty() ? "cxa" : field(o, "ruleset"));
  if (number(o, "repetitions") > 0) tag("Repetitions", std::to_string(number(o, "repetitions")));
  if (const auto* free = o.if_contains("pawns_advisors_elephants_free"); free && free->is_bool() && free->as_bool())
    tag("FreePawnsAdvisorsElephants", "yes");
  if (number(o, "move_limit_plies") > 0) tag("MoveLimitPlies", std::to_string(number(o, "move_limit_plies")));
  if (o.contains("counted_checks_per_side")) tag("CountedChecks", std::to_string(number(o, "counted_checks_per_side")));
  if (number(o, "requested_move_limit_plies") > 0)
    tag("MoveLimitOnRequest", std::to_string(number(o, "requested_move_limit_plies")));
  if (number(o, "requested_move_limit_forcing_cap") > 0)
    tag("MoveLimitOnRequestForcingCap", std::to_string(number(o, "requested_move_limit_forcing_cap")));
  if (const auto* r = o.if_contains("requested_move_limit"); r && r->is_object()) {
    const auto& req = r->as_object();
    const std::string on = field(req, "on");  // an arbiter's limit on one side
    tag("MoveLimitRequested",
        field(req, "by") + (on.empty() ? "" : " for " + on) + " after ply " + std::to_string(number(req, "at_ply")));
  }
  tag("GameId", field(o, "id"));
  tag("Format", "ICCS");
  if (jieqi) {
    tag("CaptureVisibility", field(o, "capture_visibility"));
    tag("Commitment", field(o, "commitment"));
    // Present only once the game is over (the JSON of a live game omits them).
    if (!field(o, "assignment").empty()) tag("Assignment", field(o, "assignment"));
    if (!field(o, "salt").empty()) tag("Salt", field(o, "salt"));
  }
  tag("FinalFEN", field(o, "fen"));
  out << '\n';

  std::string line;
  auto flush_if_long = [&] {
    if (line.size() > 70) {
      out << line << '\n';
      line.clear();
    }
  };
  auto it = o.find("moves");
  if (it != o.end() && it->value().is_array()) {
    for (const auto& mv : it->value().as_array()) {
      const json::object& m = mv.as_object();
      const int64_t ply = number(m, "ply");
      std::string piece;
      if (ply % 2 == 1) piece += std::to_string((ply + 1) / 2) + ". ";
      piece += field(m, "iccs") + " {" + field(m, "chinese");
      if (m.contains("red_ms")) piece += ' ' + clock_text(number(m, ply % 2 == 1 ? "red_ms" : "black_ms"));
      piece += '}';
      if (!line.empty()) line += ' ';
      line += piece;
      flush_if_long();
    }
  }
  if (!line.empty()) line += ' ';
  out << line << result << '\n';
  return out.str();
}

}  // namespace gs

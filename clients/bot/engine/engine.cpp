// TEMPORARY: the first legal move, so that the bot client can be built against the API while the
// search is written. Replaced by the real search before this lands.
#include "engine.h"

#include "rules/fen.h"
#include "rules/types.h"

namespace xq::engine {

Choice choose_move(Variant variant, const std::string& fen, const std::vector<std::string>&, const Limits&,
                   uint64_t) {
  Position pos = parse_fen(fen, variant);
  MoveList moves;
  pos.generate_legal(moves);
  Choice c;
  if (moves.size > 0) c.move = to_iccs(moves.moves[0]);
  return c;
}

}  // namespace xq::engine

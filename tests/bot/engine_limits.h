// Engine limits for the tests: a node count (exact and repeatable, unlike time) and a depth.
#pragma once
#include <cstdint>

#include "engine/engine.h"

inline xq::engine::Limits nodes(uint64_t n, int depth = 64) {
  xq::engine::Limits l;
  l.movetime_ms = 0;
  l.max_nodes = n;
  l.max_depth = depth;
  return l;
}

#include "pairing/matching.h"

#include <algorithm>
#include <cassert>

namespace xq::pairing {
namespace {

inline std::int64_t half_of(std::int64_t x) { return x >> 1; }
template <int L>
inline Wide<L> half_of(const Wide<L>& x) { return x.half(); }
inline std::int64_t twice_of(std::int64_t x) { return x * 2; }
template <int L>
inline Wide<L> twice_of(const Wide<L>& x) { return x.twice(); }

// State of one run; names follow the usual presentation of the algorithm:
// S-labelled (1) and T-labelled (2) blossoms, duals, blossom trees.
template <class W>
class Blossom {
 public:
  Blossom(int n, const std::vector<MatchEdge<W>>& edges, bool maxcard, bool warm)
      : nv_(n), maxcard_(maxcard) {
    ne_ = static_cast<int>(edges.size());
    eu_.resize(ne_);
    ev_.resize(ne_);
    ew_.resize(ne_);
    W maxw{};
    for (int k = 0; k < ne_; ++k) {
      eu_[k] = edges[k].u;
      ev_[k] = edges[k].v;
      ew_[k] = twice_of(edges[k].w);
      if (maxw < ew_[k]) maxw = ew_[k];
    }
    ew2_.resize(ne_);
    for (int k = 0; k < ne_; ++k) ew2_[k] = twice_of(ew_[k]);
    endpoint_.resize(2 * ne_);
    for (int p = 0; p < 2 * ne_; ++p) endpoint_[p] = (p % 2 == 0) ? eu_[p / 2] : ev_[p / 2];
    neighbend_.assign(nv_, {});
    for (int k = 0; k < ne_; ++k) {
      neighbend_[eu_[k]].push_back(2 * k + 1);
      neighbend_[ev_[k]].push_back(2 * k);
    }
    mate_.assign(nv_, -1);
    label_.assign(2 * nv_, 0);
    labelend_.assign(2 * nv_, -1);
    inblossom_.resize(nv_);
    for (int i = 0; i < nv_; ++i) inblossom_[i] = i;
    blossomparent_.assign(2 * nv_, -1);
    blossomchilds_.assign(2 * nv_, {});
    blossombase_.assign(2 * nv_, -1);
    for (int i = 0; i < nv_; ++i) blossombase_[i] = i;
    blossomendps_.assign(2 * nv_, {});
    bestedge_.assign(2 * nv_, -1);
    blossombestedges_.assign(2 * nv_, {});
    hasbest_.assign(2 * nv_, 0);
    for (int b = 2 * nv_ - 1; b >= nv_; --b) unused_.push_back(b);
    dual_.assign(2 * nv_, W{});
    for (int i = 0; i < nv_; ++i) dual_[i] = maxw;
    allowedge_.assign(ne_, 0);
    if (warm) warm_start();
  }

  std::vector<int> run();

  // When a perfect matching exists, max-cardinality mode solves the
  // perfect-matching LP, where vertex duals need not be equal: start from u_v = heaviest incident edge (all slacks >= 0,
  // each vertex has a tight edge) and greedily match along tight edges. This
  // removes most of the O(n) stages on large, tie-heavy pairing graphs.
  void warm_start() {
    for (int v = 0; v < nv_; ++v) {
      bool any = false;
      W best{};
      for (int p : neighbend_[v]) {
        const W& w = ew_[p / 2];
        if (!any || best < w) best = w, any = true;
      }
      dual_[v] = any ? best : W{};
    }
    auto greedy = [&] {
      for (int v = 0; v < nv_; ++v) {
        if (mate_[v] != -1) continue;
        for (int p : neighbend_[v]) {
          int w = endpoint_[p];
          if (w == v || mate_[w] != -1) continue;
          if (slack(p / 2) == W{}) {
            mate_[v] = p;
            mate_[w] = p ^ 1;
            break;
          }
        }
      }
    };
    greedy();
    // Lower each free vertex's dual to the smallest feasible value (its
    // tightest edge now leads to a matched vertex or a free one) and retry:
    // slacks stay >= 0 and matched edges stay tight.
    for (int pass = 0; pass < 2; ++pass) {
      for (int v = 0; v < nv_; ++v) {
        if (mate_[v] != -1 || neighbend_[v].empty()) continue;
        bool any = false;
        W need{};
        for (int p : neighbend_[v]) {
          int w = endpoint_[p];
          W x = twice_of(ew_[p / 2]) - dual_[w];
          if (!any || need < x) need = x, any = true;
        }
        dual_[v] = need;
      }
      greedy();
    }
  }

 private:
  W slack(int k) const { return dual_[eu_[k]] + dual_[ev_[k]] - ew2_[k]; }

  void leaves(int b, std::vector<int>& out) const {
    if (b < nv_) {
      out.push_back(b);
      return;
    }
    for (int t : blossomchilds_[b]) leaves(t, out);
  }
  std::vector<int> leaves(int b) const {
    std::vector<int> out;
    leaves(b, out);
    return out;
  }

  void assign_label(int w, int t, int p) {
    int b = inblossom_[w];
    label_[w] = label_[b] = t;
    labelend_[w] = labelend_[b] = p;
    bestedge_[w] = bestedge_[b] = -1;
    if (t == 1) {
      leaves(b, queue_);
    } else if (t == 2) {
      int base = blossombase_[b];
      assign_label(endpoint_[mate_[base]], 1, mate_[base] ^ 1);
    }
  }

  int scan_blossom(int v, int w) {
    std::vector<int> path;
    int base = -1;
    while (v != -1 || w != -1) {
      int b = inblossom_[v];
      if (label_[b] & 4) {
        base = blossombase_[b];
        break;
      }
      path.push_back(b);
      label_[b] = 5;
      if (labelend_[b] == -1) {
        v = -1;
      } else {
        v = endpoint_[labelend_[b]];
        b = inblossom_[v];
        v = endpoint_[labelend_[b]];
      }
      if (w != -1) std::swap(v, w);
    }
    for (int b : path) label_[b] = 1;
    return base;
  }

  void add_blossom(int base, int k) {
    int v = eu_[k], w = ev_[k];
    int bb = inblossom_[base], bv = inblossom_[v], bw = inblossom_[w];
    int b = unused_.back();
    unused_.pop_back();
    blossombase_[b] = base;
    blossomparent_[b] = -1;
    blossomparent_[bb] = b;
    auto& path = blossomchilds_[b];
    auto& endps = blossomendps_[b];
    path.clear();
    endps.clear();
    while (bv != bb) {
      blossomparent_[bv] = b;
      path.push_back(bv);
      endps.push_back(labelend_[bv]);
      v = endpoint_[labelend_[bv]];
      bv = inblossom_[v];
    }
    path.push_back(bb);
    std::reverse(path.begin(), path.end());
    std::reverse(endps.begin(), endps.end());
    endps.push_back(2 * k);
    while (bw != bb) {
      blossomparent_[bw] = b;
      path.push_back(bw);
      endps.push_back(labelend_[bw] ^ 1);
      w = endpoint_[labelend_[bw]];
      bw = inblossom_[w];
    }
    label_[b] = 1;
    labelend_[b] = labelend_[bb];
    dual_[b] = W{};
    for (int lv : leaves(b)) {
      if (label_[inblossom_[lv]] == 2) queue_.push_back(lv);
      inblossom_[lv] = b;
    }
    std::vector<int> bestedgeto(2 * nv_, -1);
    for (int sub : path) {
      std::vector<std::vector<int>> nblists;
      if (!hasbest_[sub]) {
        for (int lv : leaves(sub)) {
          std::vector<int> l;
          l.reserve(neighbend_[lv].size());
          for (int p : neighbend_[lv]) l.push_back(p / 2);
          nblists.push_back(std::move(l));
        }
      } else {
        nblists.push_back(blossombestedges_[sub]);
      }
      for (const auto& nbl : nblists) {
        for (int kk : nbl) {
          int i = eu_[kk], j = ev_[kk];
          if (inblossom_[j] == b) std::swap(i, j);
          int bj = inblossom_[j];
          if (bj != b && label_[bj] == 1 &&
              (bestedgeto[bj] == -1 || slack(kk) < slack(bestedgeto[bj])))
            bestedgeto[bj] = kk;
        }
      }
      blossombestedges_[sub].clear();
      hasbest_[sub] = 0;
      bestedge_[sub] = -1;
    }
    blossombestedges_[b].clear();
    for (int kk : bestedgeto)
      if (kk != -1) blossombestedges_[b].push_back(kk);
    hasbest_[b] = 1;
    bestedge_[b] = -1;
    for (int kk : blossombestedges_[b])
      if (bestedge_[b] == -1 || slack(kk) < slack(bestedge_[b])) bestedge_[b] = kk;
  }

  void expand_blossom(int b, bool endstage) {
    std::vector<int> childs = blossomchilds_[b];
    for (int s : childs) {
      blossomparent_[s] = -1;
      if (s < nv_) {
        inblossom_[s] = s;
      } else if (endstage && dual_[s] == W{}) {
        expand_blossom(s, endstage);
      } else {
        for (int lv : leaves(s)) inblossom_[lv] = s;
      }
    }
    if (!endstage && label_[b] == 2) {
      const auto& ch = blossomchilds_[b];
      const auto& ep = blossomendps_[b];
      int len = static_cast<int>(ch.size());
      auto at = [len](int j) { return ((j % len) + len) % len; };
      int entrychild = inblossom_[endpoint_[labelend_[b] ^ 1]];
      int j = static_cast<int>(std::find(ch.begin(), ch.end(), entrychild) - ch.begin());
      int jstep, endptrick;
      if (j & 1) {
        j -= len;
        jstep = 1;
        endptrick = 0;
      } else {
        jstep = -1;
        endptrick = 1;
      }
      int p = labelend_[b];
      while (j != 0) {
        label_[endpoint_[p ^ 1]] = 0;
        label_[endpoint_[ep[at(j - endptrick)] ^ endptrick ^ 1]] = 0;
        assign_label(endpoint_[p ^ 1], 2, p);
        allowedge_[ep[at(j - endptrick)] / 2] = 1;
        j += jstep;
        p = ep[at(j - endptrick)] ^ endptrick;
        allowedge_[p / 2] = 1;
        j += jstep;
      }
      int bv = ch[at(j)];
      label_[endpoint_[p ^ 1]] = label_[bv] = 2;
      labelend_[endpoint_[p ^ 1]] = labelend_[bv] = p;
      bestedge_[bv] = -1;
      j += jstep;
      while (ch[at(j)] != entrychild) {
        bv = ch[at(j)];
        if (label_[bv] == 1) {
          j += jstep;
          continue;
        }
        int found = -1;
        for (int lv : leaves(bv))
          if (label_[lv] != 0) {
            found = lv;
            break;
          }
        if (found != -1) {
          label_[found] = 0;
          label_[endpoint_[mate_[blossombase_[bv]]]] = 0;
          assign_label(found, 2, labelend_[found]);
        }
        j += jstep;
      }
    }
    label_[b] = labelend_[b] = -1;
    blossomchilds_[b].clear();
    blossomendps_[b].clear();
    blossombase_[b] = -1;
    blossombestedges_[b].clear();
    hasbest_[b] = 0;
    bestedge_[b] = -1;
    unused_.push_back(b);
  }

  void augment_blossom(int b, int v) {
    int t = v;
    while (blossomparent_[t] != b) t = blossomparent_[t];
    if (t >= nv_) augment_blossom(t, v);
    auto& ch = blossomchilds_[b];
    auto& ep = blossomendps_[b];
    int len = static_cast<int>(ch.size());
    auto at = [len](int j) { return ((j % len) + len) % len; };
    int i = static_cast<int>(std::find(ch.begin(), ch.end(), t) - ch.begin());
    int j = i, jstep, endptrick;
    if (i & 1) {
      j -= len;
      jstep = 1;
      endptrick = 0;
    } else {
      jstep = -1;
      endptrick = 1;
    }
    while (j != 0) {
      j += jstep;
      t = ch[at(j)];
      int p = ep[at(j - endptrick)] ^ endptrick;
      if (t >= nv_) augment_blossom(t, endpoint_[p]);
      j += jstep;
      t = ch[at(j)];
      if (t >= nv_) augment_blossom(t, endpoint_[p ^ 1]);
      mate_[endpoint_[p]] = p ^ 1;
      mate_[endpoint_[p ^ 1]] = p;
    }
    std::rotate(ch.begin(), ch.begin() + i, ch.end());
    std::rotate(ep.begin(), ep.begin() + i, ep.end());
    blossombase_[b] = blossombase_[ch[0]];
  }

  void augment_matching(int k) {
    int starts[2] = {eu_[k], ev_[k]};
    int ps[2] = {2 * k + 1, 2 * k};
    for (int side = 0; side < 2; ++side) {
      int s = starts[side], p = ps[side];
      while (true) {
        int bs = inblossom_[s];
        if (bs >= nv_) augment_blossom(bs, s);
        mate_[s] = p;
        if (labelend_[bs] == -1) break;
        int t = endpoint_[labelend_[bs]];
        int bt = inblossom_[t];
        s = endpoint_[labelend_[bt]];
        int j = endpoint_[labelend_[bt] ^ 1];
        if (bt >= nv_) augment_blossom(bt, j);
        mate_[j] = labelend_[bt];
        p = labelend_[bt] ^ 1;
      }
    }
  }

  int nv_, ne_;
  bool maxcard_;
  std::vector<int> eu_, ev_;
  std::vector<W> ew_, ew2_;  // doubled weight, and twice that (the slack term)
  std::vector<int> endpoint_;
  std::vector<std::vector<int>> neighbend_;
  std::vector<int> mate_, label_, labelend_, inblossom_, blossomparent_;
  std::vector<std::vector<int>> blossomchilds_, blossomendps_, blossombestedges_;
  std::vector<int> blossombase_, bestedge_, unused_;
  std::vector<char> hasbest_, allowedge_;
  std::vector<W> dual_;
  std::vector<int> queue_;
};

template <class W>
std::vector<int> Blossom<W>::run() {
  for (int stage = 0; stage < nv_; ++stage) {
    std::fill(label_.begin(), label_.end(), 0);
    std::fill(bestedge_.begin(), bestedge_.end(), -1);
    for (int b = nv_; b < 2 * nv_; ++b) {
      blossombestedges_[b].clear();
      hasbest_[b] = 0;
    }
    std::fill(allowedge_.begin(), allowedge_.end(), 0);
    queue_.clear();
    for (int v = 0; v < nv_; ++v)
      if (mate_[v] == -1 && label_[inblossom_[v]] == 0) assign_label(v, 1, -1);
    bool augmented = false;
    while (true) {
      while (!queue_.empty() && !augmented) {
        int v = queue_.back();
        queue_.pop_back();
        for (int p : neighbend_[v]) {
          int k = p / 2;
          int w = endpoint_[p];
          if (inblossom_[v] == inblossom_[w]) continue;
          W kslack{};
          if (!allowedge_[k]) {
            kslack = slack(k);
            if (kslack <= W{}) allowedge_[k] = 1;
          }
          if (allowedge_[k]) {
            if (label_[inblossom_[w]] == 0) {
              assign_label(w, 2, p ^ 1);
            } else if (label_[inblossom_[w]] == 1) {
              int base = scan_blossom(v, w);
              if (base >= 0) {
                add_blossom(base, k);
              } else {
                augment_matching(k);
                augmented = true;
                break;
              }
            } else if (label_[w] == 0) {
              label_[w] = 2;
              labelend_[w] = p ^ 1;
            }
          } else if (label_[inblossom_[w]] == 1) {
            int b = inblossom_[v];
            if (bestedge_[b] == -1 || kslack < slack(bestedge_[b])) bestedge_[b] = k;
          } else if (label_[w] == 0) {
            if (bestedge_[w] == -1 || kslack < slack(bestedge_[w])) bestedge_[w] = k;
          }
        }
      }
      if (augmented) break;

      int deltatype = -1, deltaedge = -1, deltablossom = -1;
      W delta{};
      if (!maxcard_) {
        deltatype = 1;
        delta = dual_[0];
        for (int v = 1; v < nv_; ++v)
          if (dual_[v] < delta) delta = dual_[v];
      }
      for (int v = 0; v < nv_; ++v) {
        if (label_[inblossom_[v]] == 0 && bestedge_[v] != -1) {
          W d = slack(bestedge_[v]);
          if (deltatype == -1 || d < delta) {
            delta = d;
            deltatype = 2;
            deltaedge = bestedge_[v];
          }
        }
      }
      for (int b = 0; b < 2 * nv_; ++b) {
        if (blossomparent_[b] == -1 && label_[b] == 1 && bestedge_[b] != -1) {
          W d = half_of(slack(bestedge_[b]));
          if (deltatype == -1 || d < delta) {
            delta = d;
            deltatype = 3;
            deltaedge = bestedge_[b];
          }
        }
      }
      for (int b = nv_; b < 2 * nv_; ++b) {
        if (blossombase_[b] >= 0 && blossomparent_[b] == -1 && label_[b] == 2 &&
            (deltatype == -1 || dual_[b] < delta)) {
          delta = dual_[b];
          deltatype = 4;
          deltablossom = b;
        }
      }
      if (deltatype == -1) {
        deltatype = 1;
        delta = dual_[0];
        for (int v = 1; v < nv_; ++v)
          if (dual_[v] < delta) delta = dual_[v];
        if (delta < W{}) delta = W{};
      }
      for (int v = 0; v < nv_; ++v) {
        int l = label_[inblossom_[v]];
        if (l == 1)
          dual_[v] = dual_[v] - delta;
        else if (l == 2)
          dual_[v] = dual_[v] + delta;
      }
      for (int b = nv_; b < 2 * nv_; ++b) {
        if (blossombase_[b] >= 0 && blossomparent_[b] == -1) {
          if (label_[b] == 1)
            dual_[b] = dual_[b] + delta;
          else if (label_[b] == 2)
            dual_[b] = dual_[b] - delta;
        }
      }
      if (deltatype == 1) {
        break;
      } else if (deltatype == 2) {
        allowedge_[deltaedge] = 1;
        int i = eu_[deltaedge], j = ev_[deltaedge];
        if (label_[inblossom_[i]] == 0) std::swap(i, j);
        queue_.push_back(i);
      } else if (deltatype == 3) {
        allowedge_[deltaedge] = 1;
        queue_.push_back(eu_[deltaedge]);
      } else {
        expand_blossom(deltablossom, false);
      }
    }
    if (!augmented) break;
    for (int b = nv_; b < 2 * nv_; ++b) {
      if (blossomparent_[b] == -1 && blossombase_[b] >= 0 && label_[b] == 1 && dual_[b] == W{})
        expand_blossom(b, true);
    }
  }
  std::vector<int> out(nv_, -1);
  for (int v = 0; v < nv_; ++v)
    if (mate_[v] >= 0) out[v] = endpoint_[mate_[v]];
  return out;
}

}  // namespace

template <class W>
std::vector<int> max_weight_matching(int n, const std::vector<MatchEdge<W>>& edges,
                                     bool max_cardinality, bool warm_start) {
  if (n == 0) return {};
  Blossom<W> b(n, edges, max_cardinality, warm_start && max_cardinality);
  return b.run();
}

std::vector<int> max_cardinality_matching(int n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<MatchEdge<std::int64_t>> e;
  e.reserve(edges.size());
  for (auto [u, v] : edges) e.push_back({u, v, 1});
  // With equal weights every edge starts tight, so the warm start is plain
  // greedy + Edmonds' augmenting paths: exact for cardinality.
  return max_weight_matching<std::int64_t>(n, e, true, true);
}

template std::vector<int> max_weight_matching<std::int64_t>(int, const std::vector<MatchEdge<std::int64_t>>&, bool, bool);
template std::vector<int> max_weight_matching<Wide<1>>(int, const std::vector<MatchEdge<Wide<1>>>&, bool, bool);
template std::vector<int> max_weight_matching<Wide<2>>(int, const std::vector<MatchEdge<Wide<2>>>&, bool, bool);
template std::vector<int> max_weight_matching<Wide<4>>(int, const std::vector<MatchEdge<Wide<4>>>&, bool, bool);
template std::vector<int> max_weight_matching<Wide<8>>(int, const std::vector<MatchEdge<Wide<8>>>&, bool, bool);
template std::vector<int> max_weight_matching<Wide<16>>(int, const std::vector<MatchEdge<Wide<16>>>&, bool, bool);

}  // namespace xq::pairing

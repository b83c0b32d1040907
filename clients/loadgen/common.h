// Small helpers shared by loadgen and echo_server: fd limit, /proc readers, a latency histogram.
#pragma once
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <utility>

namespace lg {

// Raises RLIMIT_NOFILE as far as allowed (the hard limit too when we may: root / CAP_SYS_RESOURCE).
inline uint64_t raise_fd_limit(uint64_t want) {
  rlimit rl{};
  getrlimit(RLIMIT_NOFILE, &rl);
  uint64_t nr_open = want;
  if (std::ifstream f("/proc/sys/fs/nr_open"); f) f >> nr_open;
  if (want > nr_open) want = nr_open;
  if (rl.rlim_max < want) {
    rlimit up{want, want};
    if (setrlimit(RLIMIT_NOFILE, &up) == 0) return want;
  }
  rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
  setrlimit(RLIMIT_NOFILE, &rl);
  getrlimit(RLIMIT_NOFILE, &rl);
  return rl.rlim_cur;
}

// VmRSS of a process in KiB (0 if unreadable).
inline uint64_t rss_kib(long pid) {
  std::ifstream f("/proc/" + (pid > 0 ? std::to_string(pid) : std::string("self")) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6));
  return 0;
}

// utime+stime of a process in clock ticks (0 if unreadable).
inline uint64_t cpu_ticks(long pid) {
  std::ifstream f("/proc/" + (pid > 0 ? std::to_string(pid) : std::string("self")) + "/stat");
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto p = s.rfind(')');
  if (p == std::string::npos) return 0;
  // fields after ")": state(3) ... utime(14) stime(15)
  size_t pos = p + 2;
  for (int field = 3; field < 14; ++field) pos = s.find(' ', pos) + 1;
  uint64_t ut = std::stoull(s.substr(pos));
  pos = s.find(' ', pos) + 1;
  uint64_t st = std::stoull(s.substr(pos));
  return ut + st;
}

// Machine-wide busy and total ticks from /proc/stat (all CPUs).
inline std::pair<uint64_t, uint64_t> machine_ticks() {
  std::ifstream f("/proc/stat");
  std::string cpu;
  uint64_t v[10] = {}, total = 0;
  f >> cpu;
  for (auto& x : v) f >> x;
  for (int i = 0; i < 8; ++i) total += v[i];
  return {total - v[3] - v[4], total};  // busy = total - idle - iowait
}

// Log-linear histogram of microseconds: exact below 1024 us, then 512 sub-buckets per octave
// (0.2 % resolution). Writers: one thread; readers: any (relaxed atomics).
class Histogram {
 public:
  static constexpr int kLinear = 1024, kSub = 512, kOctaves = 26;
  static constexpr int kSize = kLinear + kOctaves * kSub;
  Histogram() : b_(new std::atomic<uint64_t>[kSize]) {
    for (int i = 0; i < kSize; ++i) b_[i].store(0, std::memory_order_relaxed);
  }
  static int index(uint64_t us) {
    if (us < kLinear) return static_cast<int>(us);
    int e = 63 - __builtin_clzll(us);  // >= 10
    int idx = kLinear + (e - 10) * kSub + static_cast<int>((us >> (e - 9)) & (kSub - 1));
    return idx < kSize ? idx : kSize - 1;
  }
  static uint64_t lower(int idx) {
    if (idx < kLinear) return static_cast<uint64_t>(idx);
    int e = (idx - kLinear) / kSub + 10, sub = (idx - kLinear) % kSub;
    return (uint64_t{1} << e) + (static_cast<uint64_t>(sub) << (e - 9));
  }
  void add(uint64_t us) { b_[index(us)].fetch_add(1, std::memory_order_relaxed); }
  uint64_t get(int i) const { return b_[i].load(std::memory_order_relaxed); }

 private:
  std::unique_ptr<std::atomic<uint64_t>[]> b_;
};

// A plain snapshot (sum of several histograms, or a difference of two snapshots).
struct HistSnap {
  std::unique_ptr<uint64_t[]> b{new uint64_t[Histogram::kSize]()};
  uint64_t count = 0;
  void add(const Histogram& h) {
    for (int i = 0; i < Histogram::kSize; ++i) {
      uint64_t v = h.get(i);
      b[i] += v;
      count += v;
    }
  }
  // value (us) at quantile q in [0,1]
  double quantile(double q) const {
    if (count == 0) return 0;
    uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count)));
    if (rank == 0) rank = 1;
    uint64_t seen = 0;
    for (int i = 0; i < Histogram::kSize; ++i) {
      seen += b[i];
      if (seen >= rank) return static_cast<double>(Histogram::lower(i));
    }
    return static_cast<double>(Histogram::lower(Histogram::kSize - 1));
  }
  double mean() const {
    if (count == 0) return 0;
    double s = 0;
    for (int i = 0; i < Histogram::kSize; ++i) s += static_cast<double>(b[i]) * static_cast<double>(Histogram::lower(i));
    return s / static_cast<double>(count);
  }
};

}  // namespace lg

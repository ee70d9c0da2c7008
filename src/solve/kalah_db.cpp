#include "solve/kalah_db.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "core/error.h"

namespace naqala::solve {

namespace {

constexpr std::uint8_t kUnknown = 0xff;
constexpr char kMagic[8] = {'N', 'Q', 'K', 'A', 'L', 'A', 'H', 'D'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 4096;  // the values start on a page of their own

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t pits;
  std::uint32_t max_seeds;
  std::uint32_t flags;  // bit 0: empty_capture, bit 1: no extra turn
  std::uint64_t values;
  std::uint64_t checksum;
};

std::uint32_t flags_of(const KalahRules& r) {
  return (r.empty_capture ? 1u : 0u) | (r.extra_turn ? 0u : 2u);
}

std::uint64_t checksum(const std::uint8_t* p, std::uint64_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  std::uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

// Computes one level of the database; the levels below it are done.
class LevelBuilder {
 public:
  LevelBuilder(const KalahRules& rules, const Compositions& index, std::uint8_t* values, int n)
      : rules_(rules), index_(index), values_(values), n_(n) {}

  // Fills the boards numbered [first, last) of the level (and those they lead to).
  void run(std::uint64_t first, std::uint64_t last) {
    Board b = index_.unrank(first, n_);
    for (std::uint64_t r = first; r < last; ++r) {
      std::atomic_ref<std::uint8_t> slot(values_[index_.offset(n_) + r]);
      if (slot.load(std::memory_order_relaxed) == kUnknown)
        slot.store(static_cast<std::uint8_t>(compute(b)), std::memory_order_relaxed);
      index_.next(b);
    }
  }

 private:
  int compute(const Board& b) {
    const int mine = b.row(0);
    if (mine == 0 || b.row(1) == 0) return mine;  // over: each player takes his own pits
    int best = 0;
    for (int i = 0; i < rules_.pits && best < n_; ++i) {
      if (b.pit[i] == 0) continue;
      Board c = b;
      const Sowing s = sow(rules_, c, i);
      const int left = n_ - s.gained;
      int v;
      if (s.over) {
        v = s.gained + c.row(0);
      } else if (s.extra) {
        v = s.gained + value(c, left);
      } else {
        c.flip();
        v = s.gained + left - value(c, left);
      }
      best = std::max(best, v);
    }
    return best;
  }

  int value(const Board& c, int seeds) {
    std::uint8_t& byte = values_[index_.key(c, seeds)];
    if (seeds < n_) return byte;
    // Same level: a board further along the acyclic order, computed here if nobody has yet.
    std::atomic_ref<std::uint8_t> slot(byte);
    int v = slot.load(std::memory_order_relaxed);
    if (v == kUnknown) {
      v = compute(c);
      slot.store(static_cast<std::uint8_t>(v), std::memory_order_relaxed);
    }
    return v;
  }

  const KalahRules& rules_;
  const Compositions& index_;
  std::uint8_t* values_;
  int n_;
};

}  // namespace

EndgameDb EndgameDb::build(const KalahRules& rules, int max_seeds, int threads,
                           const Progress& progress) {
  if (max_seeds < 0 || max_seeds > 254)
    throw Error("a database holds boards of 0 to 254 seeds, not " + std::to_string(max_seeds));
  EndgameDb db(rules, max_seeds);
  const std::uint64_t size = db.size();
  std::shared_ptr<std::uint8_t> values(new std::uint8_t[size], std::default_delete<std::uint8_t[]>());
  const auto start = std::chrono::steady_clock::now();
  threads = std::max(1, threads);
  for (int n = 0; n <= max_seeds; ++n) {
    const std::uint64_t count = db.index_.count(n);
    std::memset(values.get() + db.index_.offset(n), kUnknown, count);
    constexpr std::uint64_t kBlock = 1 << 16;
    std::atomic<std::uint64_t> next_block{0};
    auto work = [&] {
      LevelBuilder builder(rules, db.index_, values.get(), n);
      for (std::uint64_t first; (first = next_block.fetch_add(1) * kBlock) < count;)
        builder.run(first, std::min(count, first + kBlock));
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads && count > kBlock; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (progress)
      progress(n, db.index_.offset(n + 1),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  db.storage_ = values;
  db.values_ = values.get();
  return db;
}

void EndgameDb::save(const std::string& path) const {
  std::vector<char> head(kHeaderBytes, 0);
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.pits = static_cast<std::uint32_t>(rules_.pits);
  h.max_seeds = static_cast<std::uint32_t>(max_seeds());
  h.flags = flags_of(rules_);
  h.values = size();
  h.checksum = checksum(values_, size());
  std::memcpy(head.data(), &h, sizeof h);
  const std::string temp = path + ".part";
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) throw Error("cannot write the database to " + path + ": " + std::strerror(errno));
  bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size();
  for (std::uint64_t done = 0; ok && done < size();) {
    const std::uint64_t chunk = std::min<std::uint64_t>(size() - done, 1 << 24);
    ok = std::fwrite(values_ + done, 1, chunk, f) == chunk;
    done += chunk;
  }
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    throw Error("cannot write the database to " + path + ": " + std::strerror(errno));
  }
}

EndgameDb EndgameDb::load(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw Error("cannot open the database " + path + ": " + std::strerror(errno));
  struct stat st {};
  Header h{};
  const bool readable = ::fstat(fd, &st) == 0 && ::pread(fd, &h, sizeof h, 0) == sizeof h;
  auto fail = [&](const std::string& why) {
    ::close(fd);
    throw Error("cannot use " + path + " as a Kalah database: " + why +
                " (build one with `naqala solve VARIANT --build-db K --db FILE`)");
  };
  if (!readable || std::memcmp(h.magic, kMagic, sizeof kMagic) != 0)
    fail("it is not a naqala Kalah database");
  if (h.version != kVersion)
    fail("it is version " + std::to_string(h.version) + ", this naqala reads version " +
         std::to_string(kVersion));
  if (h.pits < 1 || h.pits > 8 || h.max_seeds > 254 || (h.flags & ~3u) != 0)
    fail("its header is damaged");
  const KalahRules rules{static_cast<int>(h.pits), (h.flags & 1) != 0, (h.flags & 2) == 0};
  EndgameDb db(rules, static_cast<int>(h.max_seeds));
  if (h.values != db.size() ||
      static_cast<std::uint64_t>(st.st_size) != kHeaderBytes + db.size())
    fail("it is truncated or damaged (size " + std::to_string(st.st_size) + " bytes, expected " +
         std::to_string(kHeaderBytes + db.size()) + ")");
  void* map = ::mmap(nullptr, kHeaderBytes + db.size(), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw Error("cannot map the database " + path + ": " + std::strerror(errno));
  const std::size_t bytes = kHeaderBytes + db.size();
  db.storage_ = std::shared_ptr<const std::uint8_t>(
      static_cast<const std::uint8_t*>(map), [bytes](const std::uint8_t* p) {
        ::munmap(const_cast<std::uint8_t*>(p), bytes);
      });
  db.values_ = db.storage_.get() + kHeaderBytes;
  if (checksum(db.values_, db.size()) != h.checksum)
    throw Error("cannot use " + path + " as a Kalah database: its checksum does not match "
                "(the file is damaged; build it again)");
  return db;
}

std::string default_db_name(const KalahRules& rules, int max_seeds) {
  std::string name = "kalah-" + std::to_string(rules.pits) + "pits-" +
                     std::to_string(max_seeds) + "seeds";
  if (rules.empty_capture) name += "-empty-capture";
  if (!rules.extra_turn) name += "-no-extra-turn";
  return name + ".db";
}

}  // namespace naqala::solve

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
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include "core/error.h"
#include "solve/db_file.h"
#include "solve/games.h"
#include "solve/retro.h"

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
  return db_checksum(p, n);
}

// The Kalah database's bytes (seeds the mover ends up with, 0xff = not computed) as a store of
// the retrograde engine, which works in differences: 2 * seeds - n.
class KalahStore {
 public:
  explicit KalahStore(std::uint8_t* values) : values_(values) {}
  int low(std::uint64_t key, int n) const {
    return 2 * std::atomic_ref<std::uint8_t>(values_[key]).load(std::memory_order_relaxed) - n;
  }
  int high(std::uint64_t key, int n) const { return low(key, n); }
  bool unknown(std::uint64_t key) const {
    return std::atomic_ref<std::uint8_t>(values_[key]).load(std::memory_order_relaxed) == kUnknown;
  }
  void set(std::uint64_t key, int n, int low, int /*high*/) {
    std::atomic_ref<std::uint8_t>(values_[key])
        .store(static_cast<std::uint8_t>((low + n) / 2), std::memory_order_relaxed);
  }

 private:
  std::uint8_t* values_;
};

}  // namespace

EndgameDb EndgameDb::build(const KalahRules& rules, int max_seeds, int threads,
                           const Progress& progress) {
  if (max_seeds < 0 || max_seeds > 254)
    throw Error("a database holds boards of 0 to 254 seeds, not " + std::to_string(max_seeds));
  EndgameDb db(rules, max_seeds);
  const std::uint64_t size = db.size();
  require_memory(size, "a database of " + std::to_string(max_seeds) + " seeds");
  std::shared_ptr<std::uint8_t> values(new std::uint8_t[size],
                                       std::default_delete<std::uint8_t[]>());
  const KalahGame game(rules);
  KalahStore store(values.get());
  retro::Schedule schedule;
  schedule.threads = threads;
  schedule.before_level = [&](int n) {
    std::memset(values.get() + db.index_.offset(n), kUnknown, db.index_.count(n));
  };
  // The last block of a level and the level's end both report it done: once is enough.
  int reported = -1;
  if (progress)
    schedule.progress = [&](const retro::Progress& p) {
      if (p.done != p.level_boards || p.level == reported) return;
      reported = p.level;
      progress(p.level, db.index_.offset(p.level + 1), p.seconds);
    };
  retro::solve_levels(game, db.index_, store, 0, max_seeds, schedule);
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
  if (h.values != db.size() || static_cast<std::uint64_t>(st.st_size) != kHeaderBytes + db.size())
    fail("it is truncated or damaged (size " + std::to_string(st.st_size) + " bytes, expected " +
         std::to_string(kHeaderBytes + db.size()) + ")");
  void* map = ::mmap(nullptr, kHeaderBytes + db.size(), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED)
    throw Error("cannot map the database " + path + ": " + std::strerror(errno));
  const std::size_t bytes = kHeaderBytes + db.size();
  db.storage_ = std::shared_ptr<const std::uint8_t>(
      static_cast<const std::uint8_t*>(map),
      [bytes](const std::uint8_t* p) { ::munmap(const_cast<std::uint8_t*>(p), bytes); });
  db.values_ = db.storage_.get() + kHeaderBytes;
  if (checksum(db.values_, db.size()) != h.checksum)
    throw Error("cannot use " + path +
                " as a Kalah database: its checksum does not match "
                "(the file is damaged; build it again)");
  return db;
}

void require_memory(std::uint64_t bytes, const std::string& what) {
  const auto pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return;  // unknown: let the allocation decide
  const std::uint64_t physical = static_cast<std::uint64_t>(pages) * page;
  if (bytes > physical)
    throw Error(what + " needs " + std::to_string(bytes >> 20) + " MiB; this machine has " +
                std::to_string(physical >> 20) + " MiB");
}

std::string default_db_name(const KalahRules& rules, int max_seeds) {
  std::string name =
      "kalah-" + std::to_string(rules.pits) + "pits-" + std::to_string(max_seeds) + "seeds";
  if (rules.empty_capture) name += "-empty-capture";
  if (!rules.extra_turn) name += "-no-extra-turn";
  return name + ".db";
}

std::shared_ptr<const EndgameDb> load_db_once(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw Error("cannot open the database " + path + ": " + std::strerror(errno));
  using Key = std::tuple<std::string, dev_t, ino_t, off_t, std::int64_t, long>;
  const Key key{path, st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const EndgameDb>> loaded;
  const std::lock_guard lock(mutex);
  auto& db = loaded[key];
  if (!db) {
    try {
      db = std::make_shared<const EndgameDb>(EndgameDb::load(path));
    } catch (...) {
      loaded.erase(key);
      throw;
    }
  }
  return db;
}

}  // namespace naqala::solve

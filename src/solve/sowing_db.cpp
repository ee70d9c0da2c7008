#include "solve/sowing_db.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "solve/db_file.h"
#include "solve/games.h"
#include "solve/kalah_db.h"

namespace naqala::solve {

namespace {

constexpr char kMagic[8] = {'N', 'Q', 'S', 'O', 'W', 'D', 'B', '1'};
constexpr char kLevelMagic[8] = {'N', 'Q', 'L', 'E', 'V', 'E', 'L', '1'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 4096;
constexpr std::size_t kFingerprintBytes = 2048;
constexpr std::uint16_t kUnknown = 0x8080;  // low = high = -128: not computed (acyclic)

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t pits;
  std::uint32_t max_seeds;
  std::uint32_t width;
  std::uint64_t values;  // boards
  std::uint64_t checksum;
  char fingerprint[kFingerprintBytes];
};
static_assert(sizeof(Header) <= kHeaderBytes);

struct LevelHeader {
  char magic[8];
  std::uint32_t level;
  std::uint32_t unused;
  std::uint64_t boards;
  std::uint64_t rules;  // checksum of the fingerprint
  std::uint64_t checksum;
};

std::uint16_t pair(int low, int high) {
  return static_cast<std::uint16_t>(static_cast<std::uint8_t>(low) | static_cast<std::uint8_t>(high)
                                                                         << 8);
}

// Two signed bytes a board (low, high) while a build runs.
class PairStore {
 public:
  explicit PairStore(std::uint16_t* values) : values_(values) {}
  std::uint16_t load(std::uint64_t key) const {
    return std::atomic_ref<std::uint16_t>(values_[key]).load(std::memory_order_relaxed);
  }
  int low(std::uint64_t key, int) const { return static_cast<std::int8_t>(load(key) & 0xff); }
  int high(std::uint64_t key, int) const { return static_cast<std::int8_t>(load(key) >> 8); }
  bool unknown(std::uint64_t key) const { return load(key) == kUnknown; }
  void set(std::uint64_t key, int, int low, int high) {
    std::atomic_ref<std::uint16_t>(values_[key]).store(pair(low, high), std::memory_order_relaxed);
  }
  bool raise_low(std::uint64_t key, int, int low) {
    std::atomic_ref<std::uint16_t> v(values_[key]);
    std::uint16_t was = v.load(std::memory_order_relaxed);
    while (static_cast<std::int8_t>(was & 0xff) < low)
      if (v.compare_exchange_weak(was, pair(low, static_cast<std::int8_t>(was >> 8)),
                                  std::memory_order_relaxed))
        return true;
    return false;
  }

 private:
  std::uint16_t* values_;
};

std::string level_path(const std::string& dir, int n) {
  char name[32];
  std::snprintf(name, sizeof name, "/level-%02d.bin", n);
  return dir + name;
}

std::uint64_t text_checksum(const std::string& s) {
  return db_checksum(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

// Reads level n into `values` when its file is there, complete and of these rules.
bool read_level(const std::string& dir, int n, std::uint64_t boards, std::uint64_t rules,
                std::uint16_t* values) {
  std::ifstream in(level_path(dir, n), std::ios::binary);
  if (!in) return false;
  LevelHeader h{};
  if (!in.read(reinterpret_cast<char*>(&h), sizeof h)) return false;
  if (std::memcmp(h.magic, kLevelMagic, 8) != 0 || h.level != static_cast<std::uint32_t>(n) ||
      h.boards != boards || h.rules != rules)
    return false;
  if (!in.read(reinterpret_cast<char*>(values), static_cast<std::streamsize>(2 * boards)))
    return false;
  return db_checksum(reinterpret_cast<const std::uint8_t*>(values), 2 * boards) == h.checksum;
}

void write_level(const std::string& dir, int n, std::uint64_t boards, std::uint64_t rules,
                 const std::uint16_t* values) {
  LevelHeader h{};
  std::memcpy(h.magic, kLevelMagic, 8);
  h.level = static_cast<std::uint32_t>(n);
  h.boards = boards;
  h.rules = rules;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(values);
  h.checksum = db_checksum(bytes, 2 * boards);
  write_whole_file(level_path(dir, n), std::string(reinterpret_cast<const char*>(&h), sizeof h),
                   bytes, 2 * boards);
}

// Copies the levels 0..min(K, max_seeds) of a database of K seeds into the build's values
// (low | high << 8, as the build keeps them); returns the first level left to build. The
// numbering of a level's boards does not depend on the database's K.
int copy_levels(const SowingDb& from, const std::string& fingerprint, const Compositions& index,
                int max_seeds, std::uint16_t* values) {
  if (from.fingerprint() != fingerprint || from.pits() != index.pits())
    throw Error("the database to start from was built for other rules than this build's (" +
                std::to_string(from.pits()) + " pits a row; its rules: " + from.fingerprint() +
                ")");
  const int last = std::min(from.max_seeds(), max_seeds);
  const std::uint64_t boards = index.offset(last + 1);
  for (std::uint64_t k = 0; k < boards; ++k) {
    const SowingDb::Bounds b = from.bounds_at(k);
    values[k] = static_cast<std::uint16_t>(static_cast<std::uint8_t>(b.low) |
                                           static_cast<std::uint8_t>(b.high) << 8);
  }
  return last + 1;
}

template <class Game>
bool build_levels(const Game& game, const Compositions& index, std::uint16_t* values, int from,
                  int to, const SowingDb::BuildOptions& o, const std::function<void(int)>& done) {
  PairStore store(values);
  retro::Schedule s;
  s.threads = o.threads;
  s.progress = o.progress;
  s.passes = o.passes;
  s.before_level = [&](int n) {
    std::uint16_t* level = values + index.offset(n);
    const std::uint16_t start = Game::kAcyclic ? kUnknown : pair(-n, n);
    std::fill(level, level + index.count(n), start);
  };
  s.after_level = done;
  s.stop = o.stop;
  const SowingDb::Parallel& par = o.parallel;
  if (par.ranks > 1) {
    s.slice = [&](int, std::uint64_t count) {
      return std::pair<std::uint64_t, std::uint64_t>{count * par.rank / par.ranks,
                                                     count * (par.rank + 1) / par.ranks};
    };
    s.pass_done = [&](int n, std::uint64_t moved) {
      par.share(values + index.offset(n), index.count(n));
      return par.sum(moved);
    };
    s.share_level = [&](int n) { par.share(values + index.offset(n), index.count(n)); };
    s.gather = par.gather;
    s.sum = par.sum;
  }
  return retro::solve_levels(game, index, store, from, to, s);
}

}  // namespace

DbRules db_rules(const sowing::Rules& r) {
  auto refuse = [&](const std::string& why) {
    throw VariantError(
        "the endgame databases cannot hold " + r.name + ": " + why +
        " (they take two-row rulesets of 1 to 8 pits a row played by single laps: Oware, "
        "Awale, Kalah, Bantumi and TOML variants of that shape)");
  };
  if (r.general || r.rows != 2) refuse("it has rules beyond single laps on two rows");
  if (r.extras || r.tuz != sowing::TuzKind::None) refuse("it has a tuz");
  if (r.pits < 1 || r.pits > 8) refuse("it has " + std::to_string(r.pits) + " pits a row");
  if (r.total_seeds > 127) refuse("it has more than 127 seeds");
  try {
    Compositions(r.pits, r.total_seeds);
  } catch (const std::overflow_error&) {
    refuse("its boards are too many to number in 64 bits");
  }
  auto played = std::make_shared<sowing::Rules>(r);
  played->threshold = 0;
  played->draw_at_half = false;
  played->tie = sowing::TieBreak::Draw;
  played->cycle = sowing::CycleRule::None;
  DbRules out;
  std::ostringstream f;
  auto n = [](auto v) { return static_cast<int>(v); };
  f << "pits=" << r.pits << " direction=" << n(r.direction) << " start=" << n(r.start)
    << " stores=" << n(r.stores) << " skip_origin=" << r.skip_origin << " skip_full=" << r.skip_full
    << " min_seeds=" << r.min_seeds << " capture=" << n(r.capture)
    << " capture_set=" << n(r.capture_set) << " empty_capture=" << r.empty_capture
    << " capture_side=" << n(r.capture_side) << " counts=";
  for (int c = 0; c < 256; ++c)
    if (r.capturable[c]) f << c << ',';
  f << " chain=" << r.chain << " grand_slam=" << n(r.grand_slam) << " even=" << r.even
    << " with_last_seed=" << r.with_last_seed << " extra_turn=" << r.extra_turn
    << " must_feed=" << r.must_feed << " cannot_feed=" << n(r.cannot_feed)
    << " row_empty=" << n(r.row_empty) << " remaining=" << n(r.remaining);
  out.fingerprint = f.str();
  try {
    out.kalah = kalah_rules(*played);
    if (r.remaining != sowing::Remaining::Owner) out.kalah.reset();
  } catch (const VariantError&) {
  }
  out.played_out = std::move(played);
  return out;
}

SowingDb SowingDb::build(const sowing::Rules& rules, int max_seeds, const BuildOptions& o) {
  const DbRules dr = db_rules(rules);
  if (max_seeds < 0 || max_seeds > std::min(rules.total_seeds, 127))
    throw Error("a database of " + rules.name + " holds boards of 0 to " +
                std::to_string(std::min(rules.total_seeds, 127)) + " seeds, not " +
                std::to_string(max_seeds));
  SowingDb db(rules.pits, max_seeds);
  db.fingerprint_ = dr.fingerprint;
  const std::uint64_t boards = db.size();
  require_memory(2 * boards, "a database of " + std::to_string(max_seeds) + " seeds");
  std::shared_ptr<std::uint16_t> values(new std::uint16_t[boards],
                                        std::default_delete<std::uint16_t[]>());
  const std::uint64_t rules_sum = text_checksum(dr.fingerprint);
  const bool writer = o.parallel.rank == 0;
  int from = 0;
  if (o.start_from)
    from = copy_levels(*o.start_from, dr.fingerprint, db.index_, max_seeds, values.get());
  if (!o.level_dir.empty()) {
    if (writer) ::mkdir(o.level_dir.c_str(), 0755);  // may exist already
    while (from <= max_seeds && read_level(o.level_dir, from, db.index_.count(from), rules_sum,
                                           values.get() + db.index_.offset(from)))
      ++from;
  }
  std::atomic<int> complete = from - 1;  // the last level done
  auto done = [&](int n) {
    complete = n;
    if (!o.level_dir.empty() && writer)
      write_level(o.level_dir, n, db.index_.count(n), rules_sum,
                  values.get() + db.index_.offset(n));
  };
  if (o.parallel.ranks > 1 && o.stop) throw Error("a database build under MPI cannot be stopped");
  // A build stops only once it holds a level: the first (no seeds) is one board, so a build
  // asked to stop at once still has a database to keep, and no stop waits for a large level.
  BuildOptions levels = o;
  if (o.stop) levels.stop = [&complete, &o] { return complete >= 0 && o.stop(); };
  const bool finished = dr.kalah ? build_levels(KalahGame(*dr.kalah), db.index_, values.get(), from,
                                                max_seeds, levels, done)
                                 : build_levels(StateGame(*dr.played_out), db.index_, values.get(),
                                                from, max_seeds, levels, done);
  if (!finished) {
    if (complete < 0 || !o.keep_stopped) throw BuildStopped(complete, max_seeds, o.level_dir);
    // The levels done are a database of their own: the first boards of the numbering.
    SowingDb part(rules.pits, complete);
    part.fingerprint_ = db.fingerprint_;
    db = std::move(part);
  }
  return db.take_values(values);
}

SowingDb::BuildStopped::BuildStopped(int complete, int max_seeds, const std::string& level_dir)
    : Error("the database build was stopped at its time limit with " +
            (complete < 0 ? std::string("no level")
                          : "the levels of 0 to " + std::to_string(complete) + " seeds") +
            " of 0 to " + std::to_string(max_seeds) + " done" +
            (level_dir.empty() || complete < 0 ? "; give it more time or fewer seeds"
                                               : "; they are kept in " + level_dir +
                                                     ", and the same command goes on from there")),
      complete(complete) {}

SowingDb SowingDb::take_values(const std::shared_ptr<std::uint16_t>& values) {
  SowingDb& db = *this;
  const std::uint64_t boards = db.size();

  bool all_exact = true;
  for (std::uint64_t k = 0; k < boards && all_exact; ++k)
    all_exact = (values.get()[k] & 0xff) == (values.get()[k] >> 8);
  if (all_exact) {
    std::shared_ptr<std::uint8_t> bytes(new std::uint8_t[boards],
                                        std::default_delete<std::uint8_t[]>());
    for (std::uint64_t k = 0; k < boards; ++k)
      bytes.get()[k] = static_cast<std::uint8_t>(values.get()[k] & 0xff);
    db.width_ = 1;
    db.storage_ = bytes;
  } else {
    // Little-endian pairs are already (low, high) byte pairs.
    db.width_ = 2;
    db.storage_ = std::shared_ptr<const std::uint8_t>(
        values, reinterpret_cast<const std::uint8_t*>(values.get()));
  }
  db.values_ = db.storage_.get();
  return std::move(db);
}

void SowingDb::save(const std::string& path) const {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.pits = static_cast<std::uint32_t>(pits());
  h.max_seeds = static_cast<std::uint32_t>(max_seeds());
  h.width = static_cast<std::uint32_t>(width_);
  h.values = size();
  h.checksum = db_checksum(values_, size() * width_);
  std::snprintf(h.fingerprint, sizeof h.fingerprint, "%s", fingerprint_.c_str());
  std::string head(kHeaderBytes, '\0');
  std::memcpy(head.data(), &h, sizeof h);
  write_whole_file(path, head, values_, size() * width_);
}

SowingDb SowingDb::load(const std::string& path) {
  std::uint64_t bytes = 0;
  auto storage = map_file(path, bytes);
  auto fail = [&](const std::string& why) {
    throw Error("cannot use " + path + " as an endgame database: " + why +
                " (build one with `naqala solve VARIANT --build-db K --db FILE`)");
  };
  Header h{};
  if (bytes < kHeaderBytes) fail("it is not a naqala sowing database");
  std::memcpy(&h, storage.get(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0) fail("it is not a naqala sowing database");
  if (h.version != kVersion)
    fail("it is version " + std::to_string(h.version) + ", this naqala reads version " +
         std::to_string(kVersion));
  h.fingerprint[kFingerprintBytes - 1] = '\0';
  if (h.pits < 1 || h.pits > 8 || h.max_seeds > 127 || (h.width != 1 && h.width != 2))
    fail("its header is damaged");
  SowingDb db(static_cast<int>(h.pits), static_cast<int>(h.max_seeds));
  db.width_ = static_cast<int>(h.width);
  db.fingerprint_ = h.fingerprint;
  const std::uint64_t expected = kHeaderBytes + db.size() * db.width_;
  if (h.values != db.size() || bytes != expected)
    fail("it is truncated or damaged (size " + std::to_string(bytes) + " bytes, expected " +
         std::to_string(expected) + ")");
  db.storage_ = storage;
  db.values_ = storage.get() + kHeaderBytes;
  if (db_checksum(db.values_, db.size() * db.width_) != h.checksum)
    fail("its checksum does not match (the file is damaged; build it again)");
  return db;
}

void SowingDb::check_rules(const sowing::Rules& rules) const {
  const DbRules dr = db_rules(rules);
  if (dr.fingerprint != fingerprint_)
    throw Error("the database is for other rules (" + fingerprint_ + "), not for " + rules.name +
                "'s (" + dr.fingerprint + ")");
  if (pits() != rules.pits) throw Error("the database is for another board");
}

std::uint64_t SowingDb::exact_count(int n) const {
  std::uint64_t exact = 0;
  for (std::uint64_t k = index_.offset(n); k < index_.offset(n + 1); ++k)
    exact += bounds_at(k).exact();
  return exact;
}

int cycle_convention(const sowing::Rules& rules, const Board& b, SowingDb::Bounds bounds) {
  const int cycle = rules.cycle == sowing::CycleRule::Owner ? b.row(0) - b.row(1) : 0;
  return std::clamp(cycle, bounds.low, bounds.high);
}

std::string default_db_name(const sowing::Rules& rules, int max_seeds) {
  std::string name = rules.name;
  for (const auto& [key, value] : rules.chosen) name += "-" + key + "=" + value;
  for (char& c : name)
    if (c == '/' || c == ' ' || c == ':') c = '_';
  return name + "-" + std::to_string(max_seeds) + "seeds.db";
}

}  // namespace naqala::solve

#include "solve/sowing_db.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "core/error.h"
#include "solve/db_file.h"
#include "solve/games.h"
#include "solve/kalah_db.h"
#include "solve/retro_slices.h"

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

// Opens level n's file and reads its header: false unless the file is there, of these rules
// and of the level's size.
bool open_level(const std::string& dir, int n, std::uint64_t boards, std::uint64_t rules,
                std::ifstream& in, LevelHeader& h) {
  in.open(level_path(dir, n), std::ios::binary);
  if (!in || !in.read(reinterpret_cast<char*>(&h), sizeof h)) return false;
  if (std::memcmp(h.magic, kLevelMagic, 8) != 0 || h.level != static_cast<std::uint32_t>(n) ||
      h.boards != boards || h.rules != rules)
    return false;
  in.seekg(0, std::ios::end);
  const bool whole = static_cast<std::uint64_t>(in.tellg()) == sizeof h + 2 * boards;
  in.seekg(static_cast<std::streamoff>(sizeof h));
  return whole;
}

// Reads level n into `values` when its file is there, complete and of these rules.
bool read_level(const std::string& dir, int n, std::uint64_t boards, std::uint64_t rules,
                std::uint16_t* values) {
  std::ifstream in;
  LevelHeader h{};
  if (!open_level(dir, n, boards, rules, in, h)) return false;
  if (!in.read(reinterpret_cast<char*>(values), static_cast<std::streamsize>(2 * boards)))
    return false;
  return db_checksum(reinterpret_cast<const std::uint8_t*>(values), 2 * boards) == h.checksum;
}

// Reads the boards [first, last) of level n into `slice` when its file is there, complete and
// of these rules; `check` (one process of an MPI build) reads the whole file for its checksum.
bool read_level_slice(const std::string& dir, int n, std::uint64_t boards, std::uint64_t rules,
                      std::uint64_t first, std::uint64_t last, bool check,
                      std::vector<std::uint16_t>& slice) {
  std::ifstream in;
  LevelHeader h{};
  if (!open_level(dir, n, boards, rules, in, h)) return false;
  slice.resize(last - first);
  if (!check) {
    in.seekg(static_cast<std::streamoff>(sizeof h + 2 * first));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(slice.data()),
                                     static_cast<std::streamsize>(2 * (last - first))));
  }
  DbChecksum sum(2 * boards);
  std::vector<std::uint16_t> piece;
  constexpr std::uint64_t kPiece = 1 << 22;
  for (std::uint64_t b = 0; b < boards; b += kPiece) {
    piece.resize(std::min(kPiece, boards - b));
    if (!in.read(reinterpret_cast<char*>(piece.data()),
                 static_cast<std::streamsize>(2 * piece.size())))
      return false;
    sum.add(reinterpret_cast<const std::uint8_t*>(piece.data()), 2 * piece.size());
    const std::uint64_t from = std::max(b, first), to = std::min(b + piece.size(), last);
    if (from < to)
      std::copy(piece.begin() + static_cast<std::ptrdiff_t>(from - b),
                piece.begin() + static_cast<std::ptrdiff_t>(to - b),
                slice.begin() + static_cast<std::ptrdiff_t>(from - first));
  }
  return sum.value() == h.checksum;
}

std::string level_header(int n, std::uint64_t boards, std::uint64_t rules, std::uint64_t checksum) {
  LevelHeader h{};
  std::memcpy(h.magic, kLevelMagic, 8);
  h.level = static_cast<std::uint32_t>(n);
  h.boards = boards;
  h.rules = rules;
  h.checksum = checksum;
  return std::string(reinterpret_cast<const char*>(&h), sizeof h);
}

void write_level(const std::string& dir, int n, std::uint64_t boards, std::uint64_t rules,
                 const std::uint16_t* values) {
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(values);
  write_whole_file(level_path(dir, n),
                   level_header(n, boards, rules, db_checksum(bytes, 2 * boards)), bytes,
                   2 * boards);
}

// Copies the levels 0..min(K, max_seeds) of a database of K seeds into the build's values
// (low | high << 8, as the build keeps them); returns the first level left to build. The
// numbering of a level's boards does not depend on the database's K.
// The last level a build of `max_seeds` takes from the database `from` (of the same rules).
int levels_to_copy(const SowingDb& from, const std::string& fingerprint, const Compositions& index,
                   int max_seeds) {
  if (from.fingerprint() != fingerprint || from.pits() != index.pits())
    throw Error("the database to start from was built for other rules than this build's (" +
                std::to_string(from.pits()) + " pits a row; its rules: " + from.fingerprint() +
                ")");
  return std::min(from.max_seeds(), max_seeds);
}

int copy_levels(const SowingDb& from, const std::string& fingerprint, const Compositions& index,
                int max_seeds, std::uint16_t* values) {
  const int last = levels_to_copy(from, fingerprint, index, max_seeds);
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
  return retro::solve_levels(game, index, store, from, to, s);
}

// Asks the owners of the lower levels' boards `keys` (sorted) for their values, and answers the
// others' questions from this process's slices; returns the values in the order of `keys`.
std::vector<std::uint16_t> fetch_lower(const SowingDb::Parallel& par, const Compositions& index,
                                       const retro::SlicedStore& store,
                                       const std::vector<std::uint64_t>& keys) {
  const int ranks = par.ranks;
  // Each key's owner; keys come in order, so their levels do too.
  auto owners = [&](auto&& f) {
    int m = 0;
    for (std::uint64_t i = 0; i < keys.size(); ++i) {
      while (index.offset(m + 1) <= keys[i]) ++m;
      f(i, retro::slice_owner(index.count(m), keys[i] - index.offset(m), ranks));
    }
  };
  std::vector<std::vector<std::uint8_t>> to(ranks);
  {
    std::vector<std::uint64_t> asked(ranks);
    owners([&](std::uint64_t, int r) { ++asked[r]; });
    for (int r = 0; r < ranks; ++r) to[r].reserve(8 * asked[r]);
  }
  owners([&](std::uint64_t i, int r) {
    const auto* k = reinterpret_cast<const std::uint8_t*>(&keys[i]);
    to[r].insert(to[r].end(), k, k + 8);
  });
  const auto questions = par.alltoall(to);
  std::vector<std::vector<std::uint8_t>>().swap(to);
  std::vector<std::vector<std::uint8_t>> answers(ranks);
  for (int r = 0; r < ranks; ++r) {
    const std::uint64_t asked = questions[r].size() / 8;
    answers[r].resize(2 * asked);
    int m = 0;
    for (std::uint64_t i = 0; i < asked; ++i) {
      std::uint64_t key;
      std::memcpy(&key, questions[r].data() + 8 * i, 8);
      while (m < index.max_seeds() && index.offset(m + 1) <= key) ++m;
      const std::uint64_t at = key - index.offset(m);
      if (at < store.begin(m) || at >= store.end(m) ||
          store.slice(m).size() != store.end(m) - store.begin(m))
        throw Error("internal error: process " + std::to_string(store.rank()) +
                    " was asked for board " + std::to_string(key) + ", which it does not hold");
      std::memcpy(answers[r].data() + 2 * i, &store.slice(m)[at - store.begin(m)], 2);
    }
  }
  const auto replies = par.alltoall(answers);
  std::vector<std::uint16_t> values(keys.size());
  std::vector<std::uint64_t> read(ranks, 0);
  owners([&](std::uint64_t i, int r) {
    if (2 * read[r] + 2 > replies[r].size())
      throw Error("internal error: process " + std::to_string(r) + " answered too few values");
    std::memcpy(&values[i], replies[r].data() + 2 * read[r]++, 2);
  });
  return values;
}

// build_levels for one process of an MPI build that keeps its slice of every level.
template <class Game>
void build_levels_sliced(const Game& game, const Compositions& index, retro::SlicedStore& store,
                         int from, int to, const SowingDb::BuildOptions& o,
                         const std::function<void(int)>& done) {
  const SowingDb::Parallel& par = o.parallel;
  // The worklist of a cyclic level holds only this process's boards and its ghosts; the
  // passes and acyclic levels hold the level whole.
  const bool sliced = !Game::kAcyclic && !o.passes;
  auto start = [](int n) { return Game::kAcyclic ? kUnknown : pair(-n, n); };
  retro::Schedule s;
  s.threads = o.threads;
  s.progress = o.progress;
  s.passes = o.passes;
  s.before_level = [&](int n) {
    if (!sliced) store.begin_level(n, start(n));
  };
  s.fetch = [&](int n) {
    auto read = retro::successors(game, index, n, store.begin(n), store.end(n), sliced, o.threads);
    if (sliced) store.begin_sliced_level(n, start(n), read.ghosts);
    std::vector<std::uint64_t>().swap(read.ghosts);
    std::uint64_t others = 0;  // of them, those of other processes' slices
    int m = 0;
    for (const std::uint64_t key : read.lower) {
      while (index.offset(m + 1) <= key) ++m;
      const std::uint64_t at = key - index.offset(m);
      others += at < store.begin(m) || at >= store.end(m);
    }
    store.set_lower(read.lower, fetch_lower(par, index, store, read.lower));
    return std::pair<std::uint64_t, std::uint64_t>{read.lower.size(), others};
  };
  s.after_level = [&](int n) {
    if (par.sum(store.missed() ? 1 : 0) > 0)
      throw Error(
          "internal error: a process of the MPI build read a board it had not asked for "
          "(level " +
          std::to_string(n) + ")");
    done(n);
    store.end_level();
  };
  s.slice = [&](int n, std::uint64_t) {
    return std::pair<std::uint64_t, std::uint64_t>{store.begin(n), store.end(n)};
  };
  s.pass_done = [&](int n, std::uint64_t moved) {
    par.share(store.level(), index.count(n));
    return par.sum(moved);
  };
  s.exchange = [&](int n, retro::LevelExchange& e) {
    e.ranks = par.ranks;
    e.ghosts = &store.ghosts();
    e.values = store.level();
    const std::uint64_t count = index.count(n);
    e.owner = [count, &par](std::uint64_t r) { return retro::slice_owner(count, r, par.ranks); };
    e.alltoall = par.alltoall;
  };
  s.whole_level = [&](int n) { store.whole_level(start(n)); };
  s.sum = par.sum;
  retro::solve_levels(game, index, store, from, to, s);
}

// Streams the slices of a level of `count` boards (`own`: this process's) to rank 0 in the
// order of the boards, in pieces of 4 M boards (an all-to-all in which only the piece's owner
// sends), `width` bytes a board (1: the low byte); rank 0 gets each piece through `take`.
void stream_to_writer(const SowingDb::Parallel& par, std::uint64_t count, const std::uint16_t* own,
                      int width,
                      const std::function<void(const std::vector<std::uint8_t>&)>& take) {
  const bool writer = par.rank == 0;
  std::vector<std::uint8_t> bytes;
  constexpr std::uint64_t kPiece = 1 << 22;  // boards
  for (int r = 0; r < par.ranks; ++r) {
    const std::uint64_t size =
        retro::slice_begin(count, r + 1, par.ranks) - retro::slice_begin(count, r, par.ranks);
    for (std::uint64_t b = 0; b < size; b += kPiece) {
      const std::uint64_t n = std::min(kPiece, size - b);
      bytes.clear();
      if (r == par.rank) {
        const std::uint16_t* v = own + b;
        if (width == 1)
          for (std::uint64_t i = 0; i < n; ++i) bytes.push_back(static_cast<std::uint8_t>(v[i]));
        else
          bytes.insert(bytes.end(), reinterpret_cast<const std::uint8_t*>(v),
                       reinterpret_cast<const std::uint8_t*>(v + n));
      }
      if (r != 0) {  // rank 0's own pieces need no message
        std::vector<std::vector<std::uint8_t>> to(par.ranks);
        if (r == par.rank) to[0].swap(bytes);
        auto got = par.alltoall(to);
        if (writer) bytes.swap(got[r]);
      }
      if (!writer) continue;
      if (bytes.size() != n * width)
        throw Error("internal error: process " + std::to_string(r) + " sent " +
                    std::to_string(bytes.size()) + " bytes, not " + std::to_string(n * width));
      take(bytes);
    }
  }
}

// The file's first kHeaderBytes.
std::string header_bytes(int pits, int max_seeds, int width, std::uint64_t boards,
                         std::uint64_t checksum, const std::string& fingerprint) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.pits = static_cast<std::uint32_t>(pits);
  h.max_seeds = static_cast<std::uint32_t>(max_seeds);
  h.width = static_cast<std::uint32_t>(width);
  h.values = boards;
  h.checksum = checksum;
  std::snprintf(h.fingerprint, sizeof h.fingerprint, "%s", fingerprint.c_str());
  std::string head(kHeaderBytes, '\0');
  std::memcpy(head.data(), &h, sizeof h);
  return head;
}

void check_max_seeds(const sowing::Rules& rules, int max_seeds) {
  if (max_seeds < 0 || max_seeds > std::min(rules.total_seeds, 127))
    throw Error("a database of " + rules.name + " holds boards of 0 to " +
                std::to_string(std::min(rules.total_seeds, 127)) + " seeds, not " +
                std::to_string(max_seeds));
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
  check_max_seeds(rules, max_seeds);
  if (o.parallel.ranks > 1)
    throw Error(
        "a database build under MPI keeps a slice on each process: it is written by "
        "SowingDb::build_sliced");
  SowingDb db(rules.pits, max_seeds);
  db.fingerprint_ = dr.fingerprint;
  const std::uint64_t boards = db.size();
  require_memory(2 * boards, "a database of " + std::to_string(max_seeds) + " seeds");
  std::shared_ptr<std::uint16_t> values(new std::uint16_t[boards],
                                        std::default_delete<std::uint16_t[]>());
  const std::uint64_t rules_sum = text_checksum(dr.fingerprint);
  int from = 0;
  if (o.start_from)
    from = copy_levels(*o.start_from, dr.fingerprint, db.index_, max_seeds, values.get());
  if (!o.level_dir.empty()) {
    ::mkdir(o.level_dir.c_str(), 0755);  // may exist already
    while (from <= max_seeds && read_level(o.level_dir, from, db.index_.count(from), rules_sum,
                                           values.get() + db.index_.offset(from)))
      ++from;
  }
  std::atomic<int> complete = from - 1;  // the last level done
  auto done = [&](int n) {
    complete = n;
    if (!o.level_dir.empty())
      write_level(o.level_dir, n, db.index_.count(n), rules_sum,
                  values.get() + db.index_.offset(n));
  };
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
  const std::uint64_t bytes = size() * width_;
  write_whole_file(
      path,
      header_bytes(pits(), max_seeds(), width_, size(), db_checksum(values_, bytes), fingerprint_),
      values_, bytes);
}

SowingDb::Written SowingDb::build_sliced(const sowing::Rules& rules, int max_seeds,
                                         const BuildOptions& o, const std::string& path) {
  const DbRules dr = db_rules(rules);
  check_max_seeds(rules, max_seeds);
  if (o.stop) throw Error("a database build under MPI cannot be stopped");
  const Parallel& par = o.parallel;
  const Compositions index(rules.pits, max_seeds);
  const std::uint64_t boards = index.offset(max_seeds + 1);
  // This process's slices, and its share of the largest level with the worklist's arrays (its
  // ghosts and predecessor lists: about 60 bytes a board of its slice, measured at 14 seeds).
  require_memory((2 * boards + 60 * index.count(max_seeds)) / par.ranks,
                 "this process's share of a database of " + std::to_string(max_seeds) + " seeds");
  retro::SlicedStore store(index, par.rank, par.ranks);
  const std::uint64_t rules_sum = text_checksum(dr.fingerprint);
  const bool writer = par.rank == 0;
  int from = 0;
  if (o.start_from) {
    const int last = levels_to_copy(*o.start_from, dr.fingerprint, index, max_seeds);
    for (; from <= last; ++from) {
      auto& slice = store.slice(from);
      slice.resize(store.end(from) - store.begin(from));
      for (std::uint64_t i = 0; i < slice.size(); ++i) {
        const Bounds b = o.start_from->bounds_at(index.offset(from) + store.begin(from) + i);
        slice[i] = pair(b.low, b.high);
      }
    }
  }
  if (!o.level_dir.empty()) {
    if (writer) ::mkdir(o.level_dir.c_str(), 0755);  // may exist already
    // A level is taken only when every process could read its slice (and rank 0 its checksum).
    for (; from <= max_seeds; ++from) {
      const bool read =
          read_level_slice(o.level_dir, from, index.count(from), rules_sum, store.begin(from),
                           store.end(from), writer, store.slice(from));
      if (par.sum(read ? 1 : 0) != static_cast<std::uint64_t>(par.ranks)) {
        std::vector<std::uint16_t>().swap(store.slice(from));
        break;
      }
    }
  }
  // Each finished level's file, streamed to rank 0 from every process's slice.
  auto done = [&](int n) {
    if (o.level_dir.empty()) return;
    const std::uint64_t count = index.count(n);
    std::optional<WholeFileWriter> out;
    if (writer) out.emplace(level_path(o.level_dir, n), sizeof(LevelHeader));
    DbChecksum sum(2 * count);
    stream_to_writer(par, count, store.own(), 2, [&](const std::vector<std::uint8_t>& bytes) {
      sum.add(bytes.data(), bytes.size());
      out->write(bytes.data(), bytes.size());
    });
    if (writer) out->finish(level_header(n, count, rules_sum, sum.value()));
  };
  if (dr.kalah)
    build_levels_sliced(KalahGame(*dr.kalah), index, store, from, max_seeds, o, done);
  else
    build_levels_sliced(StateGame(*dr.played_out), index, store, from, max_seeds, o, done);

  // The file, streamed to rank 0 level by level and slice by slice, in pieces.
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t open = 0;  // boards whose bounds differ
  for (int m = 0; m <= max_seeds; ++m)
    for (const std::uint16_t v : store.slice(m)) open += (v & 0xff) != (v >> 8);
  Written w;
  w.boards = boards;
  w.width = par.sum(open) == 0 ? 1 : 2;
  std::optional<WholeFileWriter> out;
  if (writer) out.emplace(path, kHeaderBytes);
  DbChecksum sum(boards * w.width);
  for (int m = 0; m <= max_seeds; ++m)
    stream_to_writer(par, index.count(m), store.slice(m).data(), w.width,
                     [&](const std::vector<std::uint8_t>& bytes) {
                       sum.add(bytes.data(), bytes.size());
                       out->write(bytes.data(), bytes.size());
                     });
  if (writer)
    out->finish(header_bytes(rules.pits, max_seeds, w.width, boards, sum.value(), dr.fingerprint));
  w.write_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return w;
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

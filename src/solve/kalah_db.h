#pragma once
// Endgame database for Kalah-like games: for every board with at most K seeds in the pits, the
// number of them the player to move ends up with under best play (one byte per board, at the
// board's number in solve/compositions.h).
//
// Built level by level: a move never adds seeds to the pits, so the boards with fewer seeds
// are known when level n is computed. A move that keeps all n seeds on the board puts none in
// the store, so it stays in the mover's row and moves seeds to his right: the sum over both
// rows of (seeds x pit number from the owner's left) grows, and the boards of one level form
// an acyclic order, computed by memoised recursion. Levels are split between threads; two
// threads may compute the same board, and then write the same byte.
//
// The file: a 4096-byte header (magic, version, rules, K, a checksum of the values), then the
// values; it is memory-mapped when loaded.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>

#include "core/error.h"
#include "core/zeroed_table.h"
#include "solve/compositions.h"
#include "solve/kalah.h"

namespace naqala::solve {

class EndgameDb {
 public:
  // Called after each level with the level, the boards done so far and the seconds spent.
  using Progress = std::function<void(int level, std::uint64_t boards, double seconds)>;

  static EndgameDb build(const KalahRules& rules, int max_seeds, int threads,
                         const Progress& progress = {});
  // Throws naqala::Error when the file is missing, not a database, damaged (checksum) or
  // truncated.
  static EndgameDb load(const std::string& path);
  void save(const std::string& path) const;

  const KalahRules& rules() const { return rules_; }
  int max_seeds() const { return index_.max_seeds(); }
  std::uint64_t size() const { return index_.offset(max_seeds() + 1); }
  const Compositions& index() const { return index_; }

  // The seeds of the n on b (n <= max_seeds) the player to move ends up with.
  int value(const Board& b, int n) const { return values_[index_.key(b, n)]; }
  int value_at(std::uint64_t key) const { return values_[key]; }

 private:
  EndgameDb(const KalahRules& rules, int max_seeds)
      : rules_(rules), index_(rules.pits, max_seeds) {}

  KalahRules rules_;
  Compositions index_;
  std::shared_ptr<const std::uint8_t> storage_;  // owns the values (heap or mapping)
  const std::uint8_t* values_ = nullptr;
};

// Throws naqala::Error when `bytes` for `what` exceed the machine's physical memory.
void require_memory(std::uint64_t bytes, const std::string& what);

// A solver's hash table of about `table_mb` MiB: a power of two of buckets of `ways` entries
// (1,024 buckets at least), refused with an Error when the machine cannot hold it.
template <class Entry>
ZeroedTable<Entry> solver_table(std::size_t table_mb, std::size_t ways) {
  const std::size_t buckets =
      std::bit_floor(std::max<std::size_t>(1024, (table_mb << 20) / (ways * sizeof(Entry))));
  const std::size_t bytes = buckets * ways * sizeof(Entry);
  require_memory(bytes, "a table of " + std::to_string(table_mb) + " MiB");
  try {
    return ZeroedTable<Entry>(buckets * ways);
  } catch (const std::bad_alloc&) {
    throw Error("cannot allocate a table of " + std::to_string(bytes >> 20) + " MiB");
  }
}

// A name for the database file of these rules and K, e.g. "kalah-6pits-24seeds.db".
std::string default_db_name(const KalahRules& rules, int max_seeds);

// EndgameDb::load of `path`, once a process while the file stays the same (its device, inode,
// size and modification time): the engines made for each game of a match share one mapping
// instead of reading and checksumming the whole file again (1.25 GB for 24 seeds, about 0.4 s
// of CPU). Throws as load does.
std::shared_ptr<const EndgameDb> load_db_once(const std::string& path);

}  // namespace naqala::solve

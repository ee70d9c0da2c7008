#pragma once
// A transposition table shared by every search thread (Lazy SMP). Each slot is two 64-bit
// words, key ^ data and data, so a slot torn by a concurrent write fails the key check
// instead of returning another position's value (Hyatt and Mann's lockless hashing).
// Moves are stored as their index in the position's legal-move list, which is stable
// because legal_moves() is deterministic; that keeps the table independent of move types.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#ifdef __linux__
#include <sys/mman.h>
#endif

namespace naqala::search {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

struct TTEntry {
  int value = 0;
  int depth = 0;
  Bound bound = Bound::None;
  int move_index = -1;  // -1: no move stored
};

class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t megabytes = 16) { resize(megabytes); }

  void resize(std::size_t megabytes) {
    std::size_t buckets = std::max<std::size_t>(1, (megabytes << 20) / sizeof(Bucket));
    buckets = std::bit_floor(buckets);
    // Aligned to 2 MB and marked for transparent huge pages: a probe is a cache miss anyway,
    // it should not be a TLB miss too.
    constexpr std::size_t kHuge = 2 << 20;
    const std::size_t bytes = (buckets * sizeof(Bucket) + kHuge - 1) / kHuge * kHuge;
    buckets_.reset(static_cast<Bucket*>(std::aligned_alloc(kHuge, bytes)));
    if (!buckets_) throw std::bad_alloc();
#ifdef __linux__
    madvise(buckets_.get(), bytes, MADV_HUGEPAGE);
#endif
    // Constructing the buckets zeroes them: one pass over the memory, not two.
    for (std::size_t i = 0; i < buckets; ++i) new (&buckets_[i]) Bucket();
    mask_ = buckets - 1;
    age_ = 0;
  }
  void clear() {
    for (std::size_t i = 0; i <= mask_; ++i)
      for (auto& s : buckets_[i].slots) {
        s.check.store(0, std::memory_order_relaxed);
        s.data.store(0, std::memory_order_relaxed);
      }
    age_ = 0;
  }
  // Called once per search so old entries lose priority on replacement.
  void new_search() {
    age_ = (age_ + 1) & 0xff;
  }
  std::size_t size_bytes() const {
    return (mask_ + 1) * sizeof(Bucket);
  }

  void prefetch(std::uint64_t key) const {
    __builtin_prefetch(&buckets_[key & mask_]);
  }

  bool probe(std::uint64_t key, TTEntry& out) const {
    const Bucket& b = buckets_[key & mask_];
    for (const auto& s : b.slots) {
      const std::uint64_t data = s.data.load(std::memory_order_relaxed);
      if ((s.check.load(std::memory_order_relaxed) ^ data) == key && data != 0) {
        out = unpack(data);
        return true;
      }
    }
    return false;
  }

  void store(std::uint64_t key, int value, int depth, Bound bound, int move_index) {
    Bucket& b = buckets_[key & mask_];
    Slot* victim = &b.slots[0];
    int victim_worth = 1 << 30;
    for (auto& s : b.slots) {
      const std::uint64_t data = s.data.load(std::memory_order_relaxed);
      if (data == 0 || (s.check.load(std::memory_order_relaxed) ^ data) == key) {
        victim = &s;
        // Keep the old best move when the new result has none (a fail-low).
        if (data != 0 && move_index < 0) move_index = unpack(data).move_index;
        break;
      }
      // Deep entries of this search are worth keeping; stale ones go first.
      const int age = static_cast<int>((age_ - (data >> 56)) & 0xff);
      const int worth = static_cast<int>((data >> 32) & 0xff) - 8 * age;
      if (worth < victim_worth) {
        victim_worth = worth;
        victim = &s;
      }
    }
    const std::uint64_t data = pack(value, depth, bound, move_index);
    victim->check.store(key ^ data, std::memory_order_relaxed);
    victim->data.store(data, std::memory_order_relaxed);
  }

  // Permille of slots written in this search (sampled), as engines report "hashfull".
  int hashfull() const {
    int used = 0;
    const std::size_t n = std::min<std::size_t>(250, mask_ + 1);
    for (std::size_t i = 0; i < n; ++i)
      for (const auto& s : buckets_[i].slots) {
        const std::uint64_t data = s.data.load(std::memory_order_relaxed);
        used += data != 0 && (data >> 56) == age_;
      }
    return static_cast<int>(used * 1000 / (n * 4));
  }

 private:
  // data: value (32 bits) | depth (8) | bound (2, never 0 in a stored slot) | move+1 (8) | age (8)
  std::uint64_t pack(int value, int depth, Bound bound, int move_index) const {
    return static_cast<std::uint32_t>(value) |
           static_cast<std::uint64_t>(std::clamp(depth, 0, 255)) << 32 |
           static_cast<std::uint64_t>(bound) << 40 |
           static_cast<std::uint64_t>((move_index + 1) & 0xff) << 48 |
           static_cast<std::uint64_t>(age_) << 56;
  }
  static TTEntry unpack(std::uint64_t data) {
    TTEntry e;
    e.value = static_cast<std::int32_t>(static_cast<std::uint32_t>(data));
    e.depth = static_cast<int>((data >> 32) & 0xff);
    e.bound = static_cast<Bound>((data >> 40) & 3);
    e.move_index = static_cast<int>((data >> 48) & 0xff) - 1;
    return e;
  }

  struct Slot {
    std::atomic<std::uint64_t> check{0};
    std::atomic<std::uint64_t> data{0};
  };
  struct alignas(64) Bucket {
    Slot slots[4];
  };
  struct Free {
    void operator()(Bucket* b) const { std::free(b); }  // Buckets are trivially destructible
  };
  std::unique_ptr<Bucket[], Free> buckets_;
  std::size_t mask_ = 0;
  std::uint32_t age_ = 0;
};

}  // namespace naqala::search

#pragma once
// The memory of a large hash table (the solvers' tables): zero-filled, aligned to 2 MiB and
// marked for transparent huge pages. Nearly every probe of such a table misses the cache; with
// 4 KiB pages it would miss the TLB too. The pages come from the system zeroed as they are first
// touched, so a short solve pays for the entries it uses, not for the whole table, and clear()
// hands them back instead of writing zeros over them.
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace naqala {

template <class T>
class ZeroedTable {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "a zero-filled page must be a valid T");

 public:
  ZeroedTable() = default;
  explicit ZeroedTable(std::size_t count) : count_(count) {
    const std::size_t bytes = mapped_bytes();
    // Map 2 MiB more than needed, then unmap the slack on both sides of the aligned block.
    void* raw =
        ::mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto begin = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (begin + kHuge - 1) & ~(kHuge - 1);
    if (aligned > begin) ::munmap(raw, aligned - begin);
    if (const std::uintptr_t end = begin + bytes + kHuge; end > aligned + bytes)
      ::munmap(reinterpret_cast<void*>(aligned + bytes), end - aligned - bytes);
    data_ = reinterpret_cast<T*>(aligned);
#ifdef MADV_HUGEPAGE
    ::madvise(data_, bytes, MADV_HUGEPAGE);
#endif
  }
  ZeroedTable(ZeroedTable&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  ZeroedTable& operator=(ZeroedTable&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  ZeroedTable(const ZeroedTable&) = delete;
  ZeroedTable& operator=(const ZeroedTable&) = delete;
  ~ZeroedTable() {
    release();
  }

  // Has the system back every page now (a write to each) instead of at its first use. An
  // engine's solver does this when it is made: a page's first fault can take milliseconds on a
  // fresh virtual machine, and 1,024 nodes of a new 64 MiB table took 0.3 s inside a 0.05 s
  // proof (the clock is read between nodes).
  void touch_pages() {
    constexpr std::size_t kPage = 4096;
    auto* bytes = reinterpret_cast<volatile unsigned char*>(data_);
    for (std::size_t i = 0; data_ && i < mapped_bytes(); i += kPage) bytes[i] = 0;
  }

  // Every entry zero again; the pages go back to the system until they are touched.
  void clear() {
    if (data_) ::madvise(data_, mapped_bytes(), MADV_DONTNEED);
  }

  T* get() const {
    return data_;
  }
  T& operator[](std::size_t i) const {
    return data_[i];
  }
  std::size_t size() const {
    return count_;
  }
  explicit operator bool() const {
    return data_ != nullptr;
  }

 private:
  static constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  std::size_t mapped_bytes() const {
    return (count_ * sizeof(T) + kHuge - 1) & ~(kHuge - 1);
  }
  void release() {
    if (data_) ::munmap(data_, mapped_bytes());
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace naqala

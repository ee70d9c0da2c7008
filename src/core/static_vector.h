#pragma once
// A fixed-capacity vector: move lists and other hot-path containers never allocate.
#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <type_traits>

namespace naqala {

template <class T, std::size_t Capacity>
class StaticVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  // The elements past size() are never read, so they are left uninitialised (even when the
  // element type has default member values, as the four-row games' moves have: a union's
  // member is not constructed) and copies move only the elements in use: a long capacity
  // costs nothing on the hot path.
  StaticVector() {}
  StaticVector(const StaticVector& other) : size_(other.size_) {
    std::copy_n(other.storage_.items.begin(), size_, storage_.items.begin());
  }
  StaticVector& operator=(const StaticVector& other) {
    size_ = other.size_;
    std::copy_n(other.storage_.items.begin(), size_, storage_.items.begin());
    return *this;
  }
  StaticVector(std::initializer_list<T> init) {
    for (const T& v : init) push_back(v);
  }

  void push_back(const T& v) {
    assert(size_ < Capacity);
    storage_.items[size_++] = v;
  }
  void pop_back() { --size_; }
  // For branch-free filling: write through data(), then set the size once.
  T* data() { return storage_.items.data(); }
  const T* data() const { return storage_.items.data(); }
  void set_size(std::size_t n) {
    assert(n <= Capacity);
    size_ = n;
  }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  static constexpr std::size_t capacity() { return Capacity; }
  T& operator[](std::size_t i) { return storage_.items[i]; }
  const T& operator[](std::size_t i) const { return storage_.items[i]; }
  T& back() { return storage_.items[size_ - 1]; }
  T* begin() { return storage_.items.data(); }
  T* end() { return storage_.items.data() + size_; }
  const T* begin() const { return storage_.items.data(); }
  const T* end() const { return storage_.items.data() + size_; }
  bool contains(const T& v) const {
    for (std::size_t i = 0; i < size_; ++i)
      if (storage_.items[i] == v) return true;
    return false;
  }

 private:
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "elements are copied as bytes and never destroyed");
  union Storage {
    Storage() {}
    std::array<T, Capacity> items;
  };
  Storage storage_;
  std::size_t size_ = 0;
};

}  // namespace naqala

#pragma once
// A fixed-capacity vector: move lists and other hot-path containers never allocate.
#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <initializer_list>

namespace naqala {

template <class T, std::size_t Capacity>
class StaticVector {
 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  // The elements past size() are never read, so they are left uninitialised and copies move
  // only the elements in use: a long capacity costs nothing on the hot path.
  StaticVector() {}
  StaticVector(const StaticVector& other) : size_(other.size_) {
    std::copy_n(other.data_.begin(), size_, data_.begin());
  }
  StaticVector& operator=(const StaticVector& other) {
    size_ = other.size_;
    std::copy_n(other.data_.begin(), size_, data_.begin());
    return *this;
  }
  StaticVector(std::initializer_list<T> init) {
    for (const T& v : init) push_back(v);
  }

  void push_back(const T& v) {
    assert(size_ < Capacity);
    data_[size_++] = v;
  }
  void pop_back() { --size_; }
  // For branch-free filling: write through data(), then set the size once.
  T* data() { return data_.data(); }
  const T* data() const { return data_.data(); }
  void set_size(std::size_t n) {
    assert(n <= Capacity);
    size_ = n;
  }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  static constexpr std::size_t capacity() { return Capacity; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  T* begin() { return data_.data(); }
  T* end() { return data_.data() + size_; }
  const T* begin() const { return data_.data(); }
  const T* end() const { return data_.data() + size_; }
  bool contains(const T& v) const {
    for (std::size_t i = 0; i < size_; ++i)
      if (data_[i] == v) return true;
    return false;
  }

 private:
  std::array<T, Capacity> data_;
  std::size_t size_ = 0;
};

}  // namespace naqala

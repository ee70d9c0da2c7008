#pragma once
// A flag that turns true `seconds` after it is made, set by a thread of its own: a loop asks it
// every step for the price of a load, however long a step takes (`naqala bench random` over a
// user's variant whose every move sows thousands of laps). A clock read every step would cost
// more than a short step; one every N steps is escaped by N slow ones.
#include <atomic>
#include <memory>

namespace naqala {

class Alarm {
 public:
  explicit Alarm(double seconds);  // at once when not > 0
  ~Alarm();                        // stops its thread
  Alarm(const Alarm&) = delete;
  Alarm& operator=(const Alarm&) = delete;

  bool rang() const { return rang_.load(std::memory_order_relaxed); }

 private:
  struct Waiter;  // alarm.cpp: the thread, and what wakes it early
  std::atomic<bool> rang_{false};
  std::unique_ptr<Waiter> waiter_;
};

}  // namespace naqala

#include "core/alarm.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace naqala {

struct Alarm::Waiter {
  std::mutex mutex;
  std::condition_variable wake;
  bool done = false;  // the alarm is going away: stop waiting
  std::thread thread;
};

Alarm::Alarm(double seconds) {
  if (!(seconds > 0)) {
    rang_ = true;
    return;
  }
  const auto at = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  waiter_ = std::make_unique<Waiter>();
  waiter_->thread = std::thread([this, at, w = waiter_.get()] {
    std::unique_lock lock(w->mutex);
    if (!w->wake.wait_until(lock, at, [w] { return w->done; }))
      rang_.store(true, std::memory_order_relaxed);
  });
}

Alarm::~Alarm() {
  if (!waiter_) return;
  {
    const std::lock_guard lock(waiter_->mutex);
    waiter_->done = true;
  }
  waiter_->wake.notify_one();
  waiter_->thread.join();
}

}  // namespace naqala

#pragma once
// One `naqala serve` per database file: two servers writing the same games would each hold
// its own copy of every live game and overwrite the other's moves. The lock is an flock on
// FILE.lock, which holds the owner's pid; the kernel drops it when the process ends (even
// kill -9), so a crash never leaves a stale lock behind.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.h"

namespace naqala::server {

class DbLock {
 public:
  explicit DbLock(const std::string& db) {
    if (db.empty() || db == ":memory:") return;
    const std::string path = db + ".lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw Error("cannot open the database '" + db + "': cannot create '" + path + "' (" +
                  std::strerror(errno) + "); does its directory exist and may we write there?");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      char pid[32] = {};
      const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
      ::close(fd_);
      fd_ = -1;
      std::string holder = n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : "";
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      throw Error("the database '" + db + "' is in use by another naqala serve" +
                  (holder.empty() ? std::string() : " (pid " + holder + ")") +
                  "; stop that one or give another --db");
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) < 0) {
      // The lock holds anyway; only the pid in the message of a second server would be missing.
    }
  }
  ~DbLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  DbLock(const DbLock&) = delete;
  DbLock& operator=(const DbLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace naqala::server

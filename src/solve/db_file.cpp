#include "solve/db_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace naqala::solve {

std::uint64_t db_checksum(const std::uint8_t* p, std::uint64_t n) {
  DbChecksum sum(n);
  sum.add(p, n);
  return sum.value();
}

void DbChecksum::mix_word(const std::uint8_t* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  h_ = (h_ ^ w) * 0x100000001b3ULL;
  h_ ^= h_ >> 29;
}

void DbChecksum::add(const std::uint8_t* p, std::uint64_t n) {
  std::uint64_t i = 0;
  while (pending_bytes_ > 0 && pending_bytes_ < 8 && i < n) pending_[pending_bytes_++] = p[i++];
  if (pending_bytes_ == 8) {
    mix_word(pending_);
    pending_bytes_ = 0;
  }
  if (pending_bytes_ > 0) return;  // all of p went to the word still open
  for (; i + 8 <= n; i += 8) mix_word(p + i);
  for (; i < n; ++i) pending_[pending_bytes_++] = p[i];
}

std::uint64_t DbChecksum::value() const {
  // The bytes after the last whole word, one at a time.
  std::uint64_t h = h_;
  for (int i = 0; i < pending_bytes_; ++i) h = (h ^ pending_[i]) * 0x100000001b3ULL;
  return h;
}

WholeFileWriter::WholeFileWriter(const std::string& path, std::uint64_t head_bytes)
    : path_(path), temp_(path + ".part") {
  file_ = std::fopen(temp_.c_str(), "wb");
  if (!file_) throw Error("cannot write " + path_ + ": " + std::strerror(errno));
  const std::string room(head_bytes, '\0');
  write(reinterpret_cast<const std::uint8_t*>(room.data()), room.size());
}

WholeFileWriter::~WholeFileWriter() {
  if (!file_) return;
  std::fclose(file_);
  std::remove(temp_.c_str());
}

void WholeFileWriter::fail(int err) {
  std::fclose(file_);
  file_ = nullptr;
  std::remove(temp_.c_str());
  throw Error("cannot write " + path_ + ": " + std::strerror(err));
}

void WholeFileWriter::write(const std::uint8_t* data, std::uint64_t bytes) {
  for (std::uint64_t done = 0; done < bytes;) {
    const std::uint64_t chunk = std::min<std::uint64_t>(bytes - done, 1 << 24);
    if (std::fwrite(data + done, 1, chunk, file_) != chunk) fail(errno);
    done += chunk;
  }
}

void WholeFileWriter::finish(const std::string& head) {
  if (std::fseek(file_, 0, SEEK_SET) != 0 ||
      std::fwrite(head.data(), 1, head.size(), file_) != head.size())
    fail(errno);
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!closed || std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    std::remove(temp_.c_str());
    throw Error("cannot write " + path_ + ": " + std::strerror(err));
  }
}

void write_whole_file(const std::string& path, const std::string& head, const std::uint8_t* data,
                      std::uint64_t bytes) {
  WholeFileWriter out(path, head.size());
  out.write(data, bytes);
  out.finish(head);
}

std::shared_ptr<const std::uint8_t> map_file(const std::string& path, std::uint64_t& bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw Error("cannot open " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    throw Error("cannot read " + path + ": " + std::strerror(errno));
  }
  bytes = static_cast<std::uint64_t>(st.st_size);
  if (bytes == 0) {
    ::close(fd);
    return std::shared_ptr<const std::uint8_t>(new std::uint8_t[1](),
                                               std::default_delete<std::uint8_t[]>());
  }
  void* map = ::mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw Error("cannot map " + path + ": " + std::strerror(errno));
  const std::size_t size = bytes;
  return std::shared_ptr<const std::uint8_t>(
      static_cast<const std::uint8_t*>(map),
      [size](const std::uint8_t* p) { ::munmap(const_cast<std::uint8_t*>(p), size); });
}

}  // namespace naqala::solve

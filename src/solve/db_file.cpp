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
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  std::uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
  return h;
}

void write_whole_file(const std::string& path, const std::string& head, const std::uint8_t* data,
                      std::uint64_t bytes) {
  const std::string temp = path + ".part";
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f) throw Error("cannot write " + path + ": " + std::strerror(errno));
  bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size();
  for (std::uint64_t done = 0; ok && done < bytes;) {
    const std::uint64_t chunk = std::min<std::uint64_t>(bytes - done, 1 << 24);
    ok = std::fwrite(data + done, 1, chunk, f) == chunk;
    done += chunk;
  }
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(temp.c_str());
    throw Error("cannot write " + path + ": " + std::strerror(err));
  }
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

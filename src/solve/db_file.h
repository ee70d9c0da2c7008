#pragma once
// What every database file of src/solve shares: a checksum of the values, writing a file whole
// (a temporary renamed into place: a build cut short never leaves a file that looks complete),
// and mapping one read-only.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

namespace naqala::solve {

std::uint64_t db_checksum(const std::uint8_t* p, std::uint64_t n);

// db_checksum of `n` bytes given in pieces of any size (a file streamed from MPI ranks).
class DbChecksum {
 public:
  explicit DbChecksum(std::uint64_t n) : h_(0x9e3779b97f4a7c15ULL ^ n) {}
  void add(const std::uint8_t* p, std::uint64_t n);
  // Once every byte was added.
  std::uint64_t value() const;

 private:
  void mix_word(const std::uint8_t* p);  // the 8 bytes at p, one word of the hash

  std::uint64_t h_;
  std::uint8_t pending_[8] = {};  // the bytes of a word not complete yet
  int pending_bytes_ = 0;
};

// A file written through `path`.part: the head's room first, then the data in pieces; finish()
// writes the head and renames the file into place. Throws naqala::Error; a writer destroyed
// unfinished removes its temporary.
class WholeFileWriter {
 public:
  WholeFileWriter(const std::string& path, std::uint64_t head_bytes);
  ~WholeFileWriter();
  WholeFileWriter(const WholeFileWriter&) = delete;
  WholeFileWriter& operator=(const WholeFileWriter&) = delete;
  void write(const std::uint8_t* data, std::uint64_t bytes);
  void finish(const std::string& head);

 private:
  [[noreturn]] void fail(int err);
  std::string path_, temp_;
  std::FILE* file_ = nullptr;
};

// Writes `head` then `bytes` of `data` to `path` through `path`.part; throws naqala::Error.
void write_whole_file(const std::string& path, const std::string& head, const std::uint8_t* data,
                      std::uint64_t bytes);

// The whole file, mapped read-only (size in `bytes`); throws naqala::Error when it cannot be
// opened or mapped.
std::shared_ptr<const std::uint8_t> map_file(const std::string& path, std::uint64_t& bytes);

}  // namespace naqala::solve

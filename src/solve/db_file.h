#pragma once
// What every database file of src/solve shares: a checksum of the values, writing a file whole
// (a temporary renamed into place: a build cut short never leaves a file that looks complete),
// and mapping one read-only.
#include <cstdint>
#include <memory>
#include <string>

namespace naqala::solve {

std::uint64_t db_checksum(const std::uint8_t* p, std::uint64_t n);

// Writes `head` then `bytes` of `data` to `path` through `path`.part; throws naqala::Error.
void write_whole_file(const std::string& path, const std::string& head, const std::uint8_t* data,
                      std::uint64_t bytes);

// The whole file, mapped read-only (size in `bytes`); throws naqala::Error when it cannot be
// opened or mapped.
std::shared_ptr<const std::uint8_t> map_file(const std::string& path, std::uint64_t& bytes);

}  // namespace naqala::solve

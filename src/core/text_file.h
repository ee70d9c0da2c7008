#pragma once
// Reading a user's input file (variant, game record, .mat match): bounded, so that /dev/zero or
// a huge file gives a clear error instead of growing memory without end (docs/limits.md).
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/error.h"

namespace naqala {

// Every input file naqala reads is at most this size.
inline constexpr std::size_t kMaxInputFileBytes = 16u << 20;

// The bytes of `path`, at most `max_bytes` of them (`limit_of` names whose limit that is),
// described as `what` in errors: a directory, a missing file or one larger than the bound
// (/dev/zero, a wrong file) is refused by name.
inline std::string read_file_bounded(const std::string& path, const std::string& what,
                                     std::size_t max_bytes,
                                     std::string_view limit_of = "an input file") {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("cannot read " + what + " '" + path + "': it is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + what + " '" + path + "'");
  std::string bytes;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    bytes.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > max_bytes) break;
  }
  if (bytes.size() > max_bytes)
    throw Error("cannot read " + what + " '" + path + "': it is larger than " +
                std::to_string(max_bytes >> 20) + " MiB, the limit for " + std::string(limit_of));
  return bytes;
}

// The text of `path`, described as `what` ("variant file", "record") in errors. A leading UTF-8
// byte-order mark, which some editors write, is dropped.
inline std::string read_text_file(const std::string& path, const std::string& what) {
  std::string text = read_file_bounded(path, what, kMaxInputFileBytes);
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  return text;
}

// Every line naqala reads from a stream (a protocol's standard input, a large data file read a
// line at a time) is at most this long.
inline constexpr std::size_t kMaxInputLineBytes = 1u << 20;

// std::getline with a bound: false at the end of the input (with nothing read); a line longer
// than kMaxInputLineBytes (a binary file, /dev/zero) is an Error naming `what`.
inline bool read_bounded_line(std::istream& in, std::string& line, std::string_view what) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  for (int c = buf->sbumpc();; c = buf->sbumpc()) {
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return !line.empty();
    }
    if (c == '\n') return true;
    if (line.size() == kMaxInputLineBytes)
      throw Error(std::string(what) + ": a line longer than " +
                  std::to_string(kMaxInputLineBytes >> 20) +
                  " MiB, the limit for a line of text (is it a text file?)");
    line.push_back(static_cast<char>(c));
  }
}

}  // namespace naqala

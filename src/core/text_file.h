#pragma once
// Reading a user's input file (variant, game record, .mat match): bounded, so that /dev/zero or
// a huge file gives a clear error instead of growing memory without end (docs/limits.md).
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.h"

namespace naqala {

// Every input file naqala reads is at most this size.
inline constexpr std::size_t kMaxInputFileBytes = 16u << 20;

// The text of `path`, described as `what` ("variant file", "record") in errors. A leading UTF-8
// byte-order mark, which some editors write, is dropped.
inline std::string read_text_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("cannot read " + what + " '" + path + "': it is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + what + " '" + path + "'");
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputFileBytes) break;
  }
  if (text.size() > kMaxInputFileBytes)
    throw Error("cannot read " + what + " '" + path +
                "': it is larger than 16 MiB, the limit for " + "an input file");
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  return text;
}

}  // namespace naqala

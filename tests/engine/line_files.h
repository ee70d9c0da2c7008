#pragma once
// For the files that grow a block of lines at a time (self-play records, exact labels): a
// file's whole text, and the check that reading a bad file names it and the bad line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"

namespace naqala::engine {

inline std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

// Writes `text` to `path`, reads it with `read`, and expects an error naming `where`
// ("FILE:LINE"); a missing file must be refused too.
template <class Read>
void expect_bad_line_named(const std::string& path, const std::string& text,
                           const std::string& where, Read read) {
  std::ofstream(path) << text;
  try {
    read(path);
    ADD_FAILURE() << "a bad line was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
  }
  EXPECT_THROW(read(path + ".missing"), Error);
}

}  // namespace naqala::engine

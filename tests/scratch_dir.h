#pragma once
// A directory of a test's own, made with mkdtemp and removed with what it holds at the end.
// ctest -j runs each test in its own process, and the release and sanitizer runs (or two
// worktrees) may run at once: a fixed name under /tmp lets two of them read each other's files.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace naqala::testing {

class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "test";
    for (char& c : name)
      if (c == '/') c = '_';  // parameterized tests' names hold slashes
    std::string pattern =
        (std::filesystem::path(::testing::TempDir()) / ("naqala-" + name + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // A file name inside the directory, as a string for command lines.
  std::string operator/(const std::string& file) const { return (path_ / file).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace naqala::testing

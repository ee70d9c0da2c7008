#pragma once
// Runs the `naqala` binary under test (NAQALA_BIN) with a shell command line.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>

namespace naqala::testing {

struct Run {
  int status;       // the exit status; 128 + N when killed by signal N (a crash)
  std::string out;  // stdout and stderr together
};

// `args` with standard input read from `input_path` (a file or a device such as /dev/zero).
inline Run naqala_reading(const std::string& args, const std::string& input_path) {
  const std::string cmd = std::string(NAQALA_BIN) + " " + args + " 2>&1 < " + input_path;
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (auto n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int rc = pclose(p);
  return {WIFSIGNALED(rc) ? 128 + WTERMSIG(rc) : WEXITSTATUS(rc), out};
}

inline Run naqala(const std::string& args, const std::string& input = "") {
  if (input.empty()) return naqala_reading(args, "/dev/null");
  // Each run gets its own input file: ctest runs tests in parallel processes, and a shared
  // name let one test's typed moves reach another's game.
  std::string name = ::testing::TempDir() + "/naqala-stdin-XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) return {-1, "cannot create a temporary input file in " + ::testing::TempDir()};
  close(fd);
  std::ofstream(name) << input;
  Run r = naqala_reading(args, name);
  std::remove(name.c_str());
  return r;
}

}  // namespace naqala::testing

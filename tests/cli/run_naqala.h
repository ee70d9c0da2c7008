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

inline Run naqala(const std::string& args, const std::string& input = "") {
  std::string cmd = std::string(NAQALA_BIN) + " " + args + " 2>&1";
  // Each run gets its own input file: ctest runs tests in parallel processes, and a shared
  // name let one test's typed moves reach another's game.
  std::string in;
  if (!input.empty()) {
    std::string name = ::testing::TempDir() + "/naqala-stdin-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) return {-1, "cannot create a temporary input file in " + ::testing::TempDir()};
    close(fd);
    in = name;
    std::ofstream(in) << input;
    cmd += " < " + in;
  } else {
    cmd += " < /dev/null";
  }
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf;
  while (auto n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int rc = pclose(p);
  if (!in.empty()) std::remove(in.c_str());
  return {WIFSIGNALED(rc) ? 128 + WTERMSIG(rc) : WEXITSTATUS(rc), out};
}

}  // namespace naqala::testing

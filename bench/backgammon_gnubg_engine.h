// gnubg 1.07 as an engine for naqala's backgammon benches and their tests: started as
// `gnubg -t -q -r` behind `external localhost:PORT` at 0 ply (its own network, no noise), asked
// with FIBS boards, answering one line a request. Money play without the Jacoby rule and
// beavers, as naqala's games have neither.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace naqala::bgbench {

// gnubg's commands before it listens on `port`. Its money sessions default to the Jacoby rule
// and beavers; these games have neither. cubeless (games without a cube): gnubg ranks its moves
// by cubeless equity. The FIBS board still shows a centred cube both may turn, and gnubg's
// default cubeful checker play counts that cube: with the Jacoby rule (the harness up to stop
// 26) it played as if gammons were worth nothing, without it for a cube that is not there.
inline std::string engine_commands(bool cubeless, int port) {
  return std::string(
             "set jacoby off\n"
             "set beavers 0\n"
             "set evaluation chequerplay evaluation plies 0\n"
             "set evaluation cubedecision evaluation plies 0\n") +
         (cubeless ? "set evaluation chequerplay evaluation cubeful off\n" : "") +
         "external localhost:" + std::to_string(port) + "\n";
}

struct GnubgEngine {
  pid_t pid = 0;
  int fd = -1;
  std::string buffer;
  std::filesystem::path dir;

  // Starts gnubg (exe) and connects; false if it does not listen within a minute.
  bool start(const std::string& exe, bool cubeless) {
    static int started = 0;  // one directory per engine of this process
    dir = std::filesystem::temp_directory_path() /
          ("naqala-gnubg-engine-" + std::to_string(::getpid()) + "-" + std::to_string(++started));
    std::filesystem::create_directories(dir);
    const int fd0 = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd0, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd0, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd0);
    const int port = ntohs(addr.sin_port);
    std::ofstream(dir / "cmds.txt") << engine_commands(cubeless, port);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, (dir / "cmds.txt").c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, (dir / "gnubg.log").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<std::string> args = {exe, "-t", "-q", "-r"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ) != 0) return false;
    posix_spawn_file_actions_destroy(&actions);
    for (int tries = 0; tries < 600; ++tries) {
      fd = ::socket(AF_INET, SOCK_STREAM, 0);
      addr.sin_port = htons(static_cast<std::uint16_t>(port));
      if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return true;
      ::close(fd);
      fd = -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  std::string ask(const std::string& request) {
    const std::string line = request + "\n";
    if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      return "<write failed>";
    char chunk[1024];
    while (buffer.find('\n') == std::string::npos) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 120000) <= 0) return "<timeout>";
      const ssize_t n = ::read(fd, chunk, sizeof chunk);
      if (n <= 0) return "<closed>";
      buffer.append(chunk, static_cast<std::size_t>(n));
    }
    const auto nl = buffer.find('\n');
    std::string answer = buffer.substr(0, nl);
    buffer.erase(0, nl + 1);
    answer.erase(std::remove(answer.begin(), answer.end(), '\0'), answer.end());
    while (!answer.empty() && (answer.back() == '\r' || answer.back() == ' ')) answer.pop_back();
    return answer;
  }
  ~GnubgEngine() {
    if (fd >= 0) ::close(fd);
    if (pid > 0) {
      ::kill(pid, SIGTERM);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
    if (!dir.empty()) std::filesystem::remove_all(dir);
  }
};

}  // namespace naqala::bgbench

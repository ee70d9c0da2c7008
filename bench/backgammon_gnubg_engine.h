// gnubg 1.07 as an engine for naqala's backgammon benches and their tests: started as
// `gnubg -t -q -r` behind `external localhost:0` at 0 ply (its own network, no noise), asked
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
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace naqala::bgbench {

// gnubg's settings for the benches. Its money sessions default to the Jacoby rule and beavers;
// these games have neither. cubeless (games without a cube): gnubg ranks its moves by cubeless
// equity. The FIBS board still shows a centred cube both may turn, and gnubg's default cubeful
// checker play counts that cube: with the Jacoby rule (the harness up to stop 26) it played as
// if gammons were worth nothing, without it for a cube that is not there.
inline std::string engine_settings(bool cubeless) {
  return std::string(
             "set jacoby off\n"
             "set beavers 0\n"
             "set evaluation chequerplay evaluation plies 0\n"
             "set evaluation cubedecision evaluation plies 0\n") +
         (cubeless ? "set evaluation chequerplay evaluation cubeful off\n" : "");
}

// Hang guard only: gnubg may be slow on a loaded machine, and the waits end on events.
constexpr int kHangGuardMs = 15 * 60 * 1000;

// The TCP port process `pid` listens on, as the kernel reports it (its socket inodes in
// /proc/PID/fd, their state and port in /proc/PID/net/tcp*); 0 while it listens on none.
inline int listening_port(pid_t pid) {
  const std::filesystem::path proc = "/proc/" + std::to_string(pid);
  std::set<std::string> sockets;
  try {
    for (const auto& fd : std::filesystem::directory_iterator(proc / "fd")) {
      std::error_code ec;
      const std::string target = std::filesystem::read_symlink(fd.path(), ec).string();
      if (!ec && target.starts_with("socket:["))
        sockets.insert(target.substr(8, target.size() - 9));
    }
  } catch (const std::filesystem::filesystem_error&) {
    return 0;  // the process is gone; the caller sees it exit
  }
  for (const char* table : {"net/tcp", "net/tcp6"}) {
    std::ifstream in(proc / table);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
          timeout >> inode;
      if (state == "0A" && sockets.contains(inode))  // 0A: LISTEN
        return std::stoi(local.substr(local.find(':') + 1), nullptr, 16);
    }
  }
  return 0;
}

// A connection that answers each request with one line (gnubg's external player protocol, and
// naqala's side of it). Answers that are not lines come back as "<...>" texts.
struct LineConnection {
  int fd = -1;
  std::string buffer;

  std::string ask(const std::string& request) {
    const std::string line = request + "\n";
    if (::write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
      return "<write failed>";
    char chunk[1024];
    while (buffer.find('\n') == std::string::npos) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, kHangGuardMs) <= 0) return "<silent for 15 minutes>";
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
  // Connects to localhost:port; false if nothing listens there.
  bool connect_to(int port) {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return true;
    ::close(fd);
    fd = -1;
    return false;
  }
  void close() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  ~LineConnection() { close(); }
};

struct GnubgEngine : LineConnection {
  pid_t pid = 0;
  std::filesystem::path dir;

  bool start(const std::string& exe, bool cubeless) {
    return start_with(exe, engine_settings(cubeless));
  }

  // Starts `gnubg -t -q -r` with `settings`, then `external localhost:0`: gnubg listens on a port
  // the kernel chose, so no other process can take it between a choice and the bind. Connects
  // once gnubg listens, however long its start takes; false if gnubg exits first (or, as a hang
  // guard, has not listened in 15 minutes): log() says why.
  // (Not an overload of start: a string literal given there would convert to bool.)
  bool start_with(const std::string& exe, const std::string& settings) {
    static int started = 0;  // one directory per engine of this process
    dir = std::filesystem::temp_directory_path() /
          ("naqala-gnubg-engine-" + std::to_string(::getpid()) + "-" + std::to_string(++started));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "cmds.txt") << settings << "external localhost:0\n";
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
    const int spawned = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
      pid = 0;
      return false;
    }
    const auto guard = std::chrono::steady_clock::now() + std::chrono::milliseconds(kHangGuardMs);
    while (std::chrono::steady_clock::now() < guard) {
      if (::waitpid(pid, nullptr, WNOHANG) == pid) {
        pid = 0;
        return false;
      }
      if (const int port = listening_port(pid); port != 0 && connect_to(port)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  std::string log() const {
    std::ifstream in(dir / "gnubg.log");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  ~GnubgEngine() {
    close();
    if (pid > 0) {
      ::kill(pid, SIGTERM);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
    if (!dir.empty()) std::filesystem::remove_all(dir);
  }
};

}  // namespace naqala::bgbench

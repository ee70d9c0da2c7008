// Oware match: a naqala engine against Aalina (UCI-like, over pipes).
// usage: aalina_match NAQALA_SPEC AALINA_MOVETIME_MS PAIRS SEED OPENING_PLIES [CLOCK_SECONDS]
// Prints one line per game and a summary. Referee: naqala's oware rules (cycle=owner).
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/rng.h"
#include "engine/arena.h"
#include "engine/engine.h"
#include "games/registry.h"

using namespace naqala;

struct Uci {
  pid_t pid = -1;
  FILE* in = nullptr;   // to engine
  FILE* out = nullptr;  // from engine
  void start() {
    int a[2], b[2];
    if (pipe(a) || pipe(b)) abort();
    pid = fork();
    if (pid == 0) {
      dup2(a[0], 0);
      dup2(b[1], 1);
      close(a[1]);
      close(b[0]);
      if (chdir("/work/aalina/build")) _exit(1);
      execlp("java", "java", "-Xmx512m", "-cp", ".", "com.joansala.oware.OwareService", nullptr);
      _exit(127);
    }
    close(a[0]);
    close(b[1]);
    in = fdopen(a[1], "w");
    out = fdopen(b[0], "r");
    send("uci");
    wait_for("uciok");
    send("setoption name Hash value 32");
    send("isready");
    wait_for("readyok");
  }
  void send(const std::string& s) {
    fprintf(in, "%s\n", s.c_str());
    fflush(in);
  }
  std::string wait_for(const std::string& prefix) {
    char buf[4096];
    while (fgets(buf, sizeof buf, out)) {
      std::string line(buf);
      if (line.rfind(prefix, 0) == 0) return line;
    }
    std::cerr << "aalina closed its output\n";
    exit(2);
  }
  void stop() {
    send("quit");
    fclose(in);
    fclose(out);
    waitpid(pid, nullptr, 0);
  }
};

// naqala oware move "k" by South = Aalina 'A'+k-1; by North = 'a'+k-1.
char to_aalina(Player p, const std::string& m) {
  return static_cast<char>((p == Player::South ? 'A' : 'a') + std::stoi(m) - 1);
}
std::string from_aalina(char c) {
  return std::to_string(std::tolower(c) - 'a' + 1);
}

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: match NAQALA_SPEC AALINA_MS PAIRS SEED OPENING_PLIES [FIRST_PAIR]\n";
    return 1;
  }
  const std::string spec = argv[1];
  const int ms = std::atoi(argv[2]);
  const int pairs = std::atoi(argv[3]);
  const std::uint64_t seed = std::strtoull(argv[4], nullptr, 10);
  const int opening_plies = std::atoi(argv[5]);
  // Resumes a cut run: the earlier pairs' openings are still drawn, so pair k gets the same
  // opening as in a run from 0.
  const int first_pair = argc > 6 ? std::atoi(argv[6]) : 0;
  auto game = make_game("oware");
  Rng rng(seed);
  Uci aalina;
  aalina.start();
  int wins = 0, draws = 0, losses = 0;
  std::map<std::string, int> ends;
  double naqala_seconds = 0, aalina_seconds = 0;
  int naqala_moves = 0, aalina_moves_count = 0;
  for (int pair = 0; pair < pairs; ++pair) {
    // An opening: random plies from the start, the same for both colours.
    std::vector<std::string> opening;
    static std::set<std::vector<std::string>> seen;
    for (int attempt = 0; attempt == 0 || !seen.insert(opening).second; ++attempt) {
      opening.clear();
      auto s = game->new_game();
      for (int p = 0; p < opening_plies; ++p) {
        auto moves = s->legal_moves();
        const auto m = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
        opening.push_back(m);
        s->play(m);
      }
    }
    if (pair < first_pair) continue;
    for (int colour = 0; colour < 2; ++colour) {
      const Player naqala_side = colour == 0 ? Player::South : Player::North;
      auto engine = engine::make_engine(*game, spec);
      aalina.send("ucinewgame");
      auto s = game->new_game();
      std::string aalina_moves;
      std::string record;
      for (const auto& m : opening) {
        aalina_moves += to_aalina(s->to_move(), m);
        s->play(m);
        record += m + " ";
      }
      int plies = 0;
      while (!s->is_over() && plies < 1000) {
        const Player p = s->to_move();
        std::string move;
        if (p == naqala_side) {
          const auto t0 = std::chrono::steady_clock::now();
          move = engine->choose_move(*s);
          naqala_seconds +=
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          ++naqala_moves;
        } else {
          aalina.send("position startpos moves " + aalina_moves);
          const auto t0 = std::chrono::steady_clock::now();
          aalina.send("go movetime " + std::to_string(ms));
          const std::string line = aalina.wait_for("bestmove");
          aalina_seconds +=
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          ++aalina_moves_count;
          char c = line[9];
          move = from_aalina(c);
        }
        aalina_moves += to_aalina(p, move);
        s->play(move);
        record += move + " ";
        ++plies;
      }
      const Outcome out = s->outcome();
      double pts = 0.5;
      if (out.winner) pts = *out.winner == naqala_side ? 1.0 : 0.0;
      if (pts == 1)
        ++wins;
      else if (pts == 0)
        ++losses;
      else
        ++draws;
      const std::string reason = s->is_over() ? std::string(to_string(out.reason)) : "unfinished";
      ends[reason]++;
      std::printf("game %d naqala=%s result=%.1f end=%s scores=%d-%d plies=%d moves: %s\n",
                  2 * pair + colour, naqala_side == Player::South ? "south" : "north", pts,
                  reason.c_str(), out.scores[0], out.scores[1], plies, record.c_str());
      std::fflush(stdout);
    }
  }
  aalina.stop();
  double elo = 0, margin = 0;
  engine::elo_from_results(wins, draws, losses, elo, margin);
  const int n = wins + draws + losses;
  std::printf(
      "SUMMARY spec=%s aalina_ms=%d games=%d +%d =%d -%d score=%.3f elo=%+.0f+-%.0f "
      "naqala_s_per_move=%.3f aalina_s_per_move=%.3f\n",
      spec.c_str(), ms, n, wins, draws, losses, (wins + 0.5 * draws) / n, elo, margin,
      naqala_moves ? naqala_seconds / naqala_moves : 0.0,
      aalina_moves_count ? aalina_seconds / aalina_moves_count : 0.0);
  for (const auto& [k, v] : ends) std::printf("END %s %d\n", k.c_str(), v);
}

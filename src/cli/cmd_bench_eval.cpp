// naqala bench eval backgammon [--seconds S] [--json]: 0-ply evaluations per second of the
// backgammon network on one core (the AVX2 kernel and the scalar one), over positions from
// self-play games of the shipped net.
#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "core/error.h"
#include "core/rng.h"
#include "eval/backgammon_evaluator.h"

namespace naqala::cli {

namespace {

using backgammon::Board;

// Positions (side on roll first) from games where each side plays a random legal move.
std::vector<Board> sample_positions(int count) {
  std::vector<Board> out;
  Rng rng(7);
  auto moves = std::make_unique<backgammon::MoveList>();
  while (static_cast<int>(out.size()) < count) {
    Board b = backgammon::start_board();
    for (int ply = 0; ply < 400 && static_cast<int>(out.size()) < count; ++ply) {
      backgammon::generate_moves(b, Player::South, 1 + rng.below(6), 1 + rng.below(6), *moves);
      if (!moves->empty())
        backgammon::apply_steps(b, Player::South, (*moves)[rng.below(moves->size())]);
      if (backgammon::checkers_off(b[0]) == backgammon::kCheckers) break;
      b = {b[1], b[0]};
      out.push_back(b);
    }
  }
  return out;
}

double evals_per_second(const bgnet::Net& net, const std::vector<Board>& positions, double seconds,
                        float& sink) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::uint64_t n = 0;
  double elapsed = 0;
  do {
    for (const Board& b : positions) sink += net.evaluate(b[0], b[1]).p[0];
    n += positions.size();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < seconds);
  return n / elapsed;
}

}  // namespace

void add_bench_eval_command(CLI::App& bench) {
  auto* cmd =
      bench.add_subcommand("eval", "Static (0-ply) evaluations per second (backgammon net)");
  struct Args {
    std::string game;
    double seconds = 3;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  cmd->add_option("game", a->game, "The game: backgammon")->required();
  cmd->add_option("--seconds", a->seconds, "Seconds per kernel (default 3)")
      ->check(CLI::Range(0.01, 3600.0));
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->callback([a] {
    if (a->game != "backgammon" && a->game != "bg" && a->game != "gamao")
      throw Error("bench eval: only backgammon has a network evaluation; got '" + a->game + "'");
    const bgnet::Net& net = bgeval::shipped_net();
    const auto positions = sample_positions(4096);
    float sink = 0;
    const bool had_avx2 = bgnet::uses_avx2();
    const double fast = evals_per_second(net, positions, a->seconds, sink);
    bgnet::use_avx2(false);
    const double scalar = evals_per_second(net, positions, a->seconds, sink);
    bgnet::use_avx2(true);
    if (a->json) {
      std::cout << nlohmann::json{{"game", "backgammon"},
                                  {"evaluations_per_second", fast},
                                  {"kernel", had_avx2 ? "avx2" : "scalar"},
                                  {"scalar_evaluations_per_second", scalar},
                                  {"positions", positions.size()},
                                  {"checksum", sink}}
                       .dump()
                << "\n";
      return;
    }
    std::cout << "backgammon 0-ply: " << static_cast<std::uint64_t>(fast)
              << " evaluations/s on one core (" << (had_avx2 ? "AVX2+FMA" : "scalar: no AVX2 here")
              << "); scalar kernel " << static_cast<std::uint64_t>(scalar) << "/s\n";
  });
}

}  // namespace naqala::cli

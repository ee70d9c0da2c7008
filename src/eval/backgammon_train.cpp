// TD(lambda) self-play for the backgammon networks.
#include "eval/backgammon_train.h"

#include <chrono>
#include <memory>
#include <vector>

#include "core/rng.h"
#include "eval/backgammon_evaluator.h"

namespace naqala::bgtrain {

using backgammon::Board;
using backgammon::kCheckers;
using backgammon::MoveList;
using bgnet::Probs;

namespace {

Probs mix(const Probs& a, const Probs& b, float wa) {
  Probs r;
  for (int k = 0; k < 5; ++k) r.p[k] = wa * a.p[k] + (1 - wa) * b.p[k];
  return r;
}

}  // namespace

int play_training_game(bgnet::Net& net, std::uint64_t seed, std::uint64_t game, float rate,
                       float lambda, const decltype(Config::value)& value) {
  std::uint64_t mixed = seed ^ (game * 0x9e3779b97f4a7c15ULL);
  Rng rng(splitmix64(mixed));
  thread_local auto moves = std::make_unique<MoveList>();
  thread_local std::vector<Board> positions;  // [0] on roll
  thread_local std::vector<Probs> values;
  positions.clear();
  values.clear();

  Board b = backgammon::start_board();  // b[0] is the side on roll
  int d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
  while (d0 == d1) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
  Probs result;
  for (int ply = 0;; ++ply) {
    positions.push_back(b);
    values.push_back(value ? value(net, b) : bgeval::on_roll(net, b[0], b[1]));
    if (ply > 0) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
    const Board best_board = bgeval::best_move(net, b, d0, d1, *moves);
    if (backgammon::checkers_off(best_board[0]) == kCheckers) {
      result = bgeval::finished(best_board[0], best_board[1]);
      break;
    }
    b = {best_board[1], best_board[0]};
  }
  // Lambda-returns, last position first; each is from the view of the side on roll there.
  const int n = static_cast<int>(positions.size());
  Probs target = result;
  for (int t = n - 1; t >= 0; --t) {
    if (t < n - 1) target = mix(values[t + 1], target, 1 - lambda).inverted();
    const Board& p = positions[t];
    if (!bearoff::evaluate(p[0], p[1])) net.train(p[0], p[1], target, rate);
  }
  return n;
}

void train(bgnet::Net& net, const Config& config,
           const std::function<void(const Progress&)>& report) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  net.meta.seed = config.seed;
  net.meta.rate = config.rate;
  net.meta.lambda = config.lambda;
  std::uint64_t plies = 0, since = 0;
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  while (net.meta.games < config.games) {
    plies += play_training_game(net, config.seed, net.meta.games, config.rate, config.lambda,
                                config.value);
    ++net.meta.games;
    ++since;
    const bool out_of_time = config.seconds > 0 && elapsed() >= config.seconds;
    if (net.meta.games % config.checkpoint_every == 0 || net.meta.games == config.games ||
        out_of_time) {
      if (!config.out.empty()) net.save(config.out);
      report({net.meta.games, elapsed(), since ? double(plies) / since : 0});
      plies = since = 0;
    }
    if (out_of_time) break;
  }
}

}  // namespace naqala::bgtrain

// naqala train backgammon [--games N] [--seed S] [--rate R] [--lambda L] [--out FILE]
// [--resume] [--seconds T] [--target-plies P]: TD(lambda) self-play training of the backgammon
// networks (src/eval/backgammon_train.h). Writes a checkpoint every --checkpoint games; --resume
// continues from the file named by --out. With --race, the race network of the --from weights
// is trained instead from one-sided race distributions (src/eval/backgammon_race_train.h);
// rerunning the same command resumes from the samples kept in --race-cache. With --supervised
// label, positions of self-play are labelled by our own search into --data (appended; a rerun
// resumes); with --supervised fit, the contact and crashed networks of --from are trained on
// them, from one --data file or several (src/search/backgammon_supervised.h).
#include <filesystem>
#include <iostream>
#include <optional>
#include <vector>

#include "cli/commands.h"
#include "core/error.h"
#include "eval/backgammon_evaluator.h"
#include "eval/backgammon_race_train.h"
#include "eval/backgammon_train.h"
#include "search/backgammon_ply.h"
#include "search/backgammon_supervised.h"

namespace naqala::cli {

void add_train_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "train", "Train an engine's evaluation by self-play (backgammon: TD(lambda) networks)");
  struct Args {
    std::string game;
    bgtrain::Config config;
    bool resume = false;
    int target_plies = 0;
    bool race = false;
    bgrace::Config race_config;
    std::string from;
    std::string supervised;
    std::vector<std::string> data;
    bgsuper::LabelConfig label;
    bgsuper::FitConfig fit;
    std::string optimizer = "adam";
  };
  auto a = std::make_shared<Args>();
  a->config.out = "bgnet.bin";
  cmd->add_option("game", a->game, "The game to train: backgammon")->required();
  cmd->add_option("--games", a->config.games, "Total self-play games (default 100000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  cmd->add_option("--seed", a->config.seed,
                  "Seed of the initial weights and of the dice (default 1)");
  auto* rate = cmd->add_option("--rate", a->config.rate,
                               "Learning rate (default 0.01; --supervised fit: 0.0005)")
                   ->check(CLI::Range(1e-6, 1.0));
  cmd->add_option("--lambda", a->config.lambda, "TD lambda (default 0.7)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--checkpoint", a->config.checkpoint_every,
                  "Games between checkpoints (default 5000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  cmd->add_option("--seconds", a->config.seconds, "Stop after this wall time (default: no limit)")
      ->check(CLI::Range(0.0, 1e9));
  cmd->add_option("--out", a->config.out, "Checkpoint and weight file (default bgnet.bin)");
  cmd->add_flag("--resume", a->resume, "Continue from the weights in --out");
  cmd->add_option("--target-plies", a->target_plies,
                  "Plies of the search whose values the targets are built from: 0 (the net "
                  "itself, default) or 1 (each position's 21 rolls searched; about 20 times "
                  "slower)")
      ->check(CLI::Range(0, 1));
  cmd->add_flag("--race", a->race,
                "Train only the race network of --from, supervised by one-sided race "
                "distributions (sampled races and the exact bear-off database), not by self-play");
  cmd->add_option("--from", a->from,
                  "--race: the weights to start from (default: the shipped ones)");
  cmd->add_option("--race-games", a->race_config.games,
                  "--race: self-play games whose race positions are sampled (default 3000)")
      ->check(CLI::Range(0, 10000000));
  cmd->add_option("--race-random", a->race_config.random_sides,
                  "--race: random race sides added (default 2000)")
      ->check(CLI::Range(0, 10000000));
  cmd->add_option("--trials", a->race_config.trials, "--race: sampled races per side (default 400)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--steps", a->race_config.steps,
                  "--race: training pairs, each side on roll once (default 2000000)")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  cmd->add_option("--threads", a->race_config.threads, "--race: sampling threads (default 1)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--race-cache", a->race_config.cache,
                  "--race: file keeping the sampled sides (default: --out with .race-cache); a "
                  "rerun resumes from it");
  cmd->add_option("--supervised", a->supervised,
                  "label: self-play positions labelled by our own search, appended to --data "
                  "(a rerun resumes); fit: the contact and crashed networks of --from trained "
                  "on --data")
      ->check(CLI::IsMember({"label", "fit"}));
  cmd->add_option("--data", a->data,
                  "--supervised: the dataset file. fit takes several (--data A --data B, or "
                  "--data A,B): their positions train together, each file's game g held out "
                  "when g % N == N - 1 by its own numbering; two files of the same seed, "
                  "settings and labelling net hold the same games and are refused")
      ->delimiter(',');
  cmd->add_option("--every", a->label.every,
                  "--supervised label: keep a contact position with chance 1/N (default 4)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--explore", a->label.explore,
                  "--supervised label: chance that a ply plays a random one of the best "
                  "--explore-top moves (default 0.1)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--explore-top", a->label.explore_top,
                  "--supervised label: how many of the best moves exploring picks from (default 4)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--label-plies", a->label.plies,
                  "--supervised label: the search depth of the labels (default 1)")
      ->check(CLI::Range(0, 2));
  cmd->add_option("--epochs", a->fit.epochs, "--supervised fit: passes over the data (default 4)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--batch", a->fit.batch, "--supervised fit: minibatch size (default 128)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--final-rate", a->fit.final_rate,
                  "--supervised fit: the rate falls linearly from --rate to this over the run "
                  "(default 0: constant --rate)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--optimizer", a->optimizer,
                  "--supervised fit: adam (default) or momentum (SGD, momentum 0.9)")
      ->check(CLI::IsMember({"adam", "momentum"}));
  cmd->add_option("--holdout", a->fit.holdout,
                  "--supervised fit: hold out game g when g % N == N - 1 "
                  "(default 20)")
      ->check(CLI::Range(2, 1000000));
  cmd->callback([a, rate] {
    if (a->game != "backgammon" && a->game != "bg" && a->game != "gamao")
      throw Error("train: only backgammon has a trainable network; got '" + a->game + "'");
    if (!a->supervised.empty()) {
      if (a->data.empty()) throw Error("train --supervised: --data FILE is required");
      if (a->supervised == "label" && a->data.size() != 1)
        throw Error("train --supervised label: one --data file is written; got " +
                    std::to_string(a->data.size()));
      std::optional<bgnet::Net> loaded;
      if (!a->from.empty()) loaded = bgnet::Net::load(a->from);
      const bgnet::Net& from = loaded ? *loaded : bgeval::shipped_net();
      const std::string from_name = a->from.empty() ? bgeval::shipped_net_path() : a->from;
      if (a->supervised == "label") {
        auto& c = a->label;
        c.seed = a->config.seed;
        c.games = a->config.games;
        c.seconds = a->config.seconds;
        c.path = a->data.front();
        std::cout << "labelling into " << c.path << " up to game " << c.games << " (seed " << c.seed
                  << ", every " << c.every << ", explore " << c.explore << " of top "
                  << c.explore_top << ", " << c.plies << "-ply labels, net " << from_name << ")"
                  << std::endl;
        bgsuper::label(from, c, [](const bgsuper::LabelProgress& p) {
          std::cout << "games " << p.games << "  positions " << p.positions << "  this run "
                    << p.new_positions << " in " << p.seconds << " s, " << p.cpu_seconds
                    << " CPU s ("
                    << (p.cpu_seconds > 0 ? double(p.new_positions) / p.cpu_seconds : 0)
                    << " positions per CPU second)" << std::endl;
        });
        return;
      }
      const std::vector<bgsuper::Dataset> data = bgsuper::read_datasets(a->data);
      bgnet::Net net = from;
      auto& f = a->fit;
      f.seed = a->config.seed;
      f.rate = rate->count() ? a->config.rate : 0.0005f;
      f.optimizer =
          a->optimizer == "adam" ? bgsuper::Optimizer::Adam : bgsuper::Optimizer::Momentum;
      f.out = a->config.out;
      std::cout << "fitting " << from_name << " on";
      for (const bgsuper::Dataset& d : data)
        std::cout << " " << d.config.path << " (" << d.records.size() << " positions of " << d.games
                  << " games, " << d.config.plies << "-ply labels)";
      std::cout << "; seed " << f.seed << ", " << a->optimizer << " rate " << f.rate
                << (f.final_rate > 0 ? " falling to " + std::to_string(f.final_rate) : "")
                << ", batch " << f.batch << ", " << f.epochs << " epochs, into " << f.out
                << std::endl;
      bgsuper::fit(net, data, f, [](const bgsuper::FitProgress& p) {
        std::cout << "epoch " << p.epoch << "  train " << p.train_positions << " loss "
                  << p.train_loss << "  held out " << p.holdout_positions << " loss "
                  << p.holdout_loss << " equity rmse " << p.holdout_rmse << "  " << p.seconds
                  << " s" << std::endl;
      });
      return;
    }
    if (a->race) {
      bgnet::Net net = a->from.empty() ? bgeval::shipped_net() : bgnet::Net::load(a->from);
      auto& rc = a->race_config;
      rc.seed = a->config.seed;
      rc.rate = a->config.rate;
      if (rc.cache.empty()) rc.cache = a->config.out + ".race-cache";
      std::cout << "race training of " << (a->from.empty() ? bgeval::shipped_net_path() : a->from)
                << " (seed " << rc.seed << ", " << rc.games << " games, " << rc.random_sides
                << " random sides, " << rc.trials << " trials, " << rc.steps << " pairs, rate "
                << rc.rate << ") into " << a->config.out << std::endl;
      bgrace::train(net, rc, [](const bgrace::Progress& p) {
        std::cout << p.stage << " " << p.done << "/" << p.total << "  " << p.seconds << " s"
                  << std::endl;
      });
      net.save(a->config.out);
      return;
    }
    bgnet::Net net;
    if (a->resume) {
      if (!std::filesystem::exists(a->config.out))
        throw Error("train --resume: " + a->config.out + " does not exist");
      net = bgnet::Net::load(a->config.out);
      if (net.meta.seed != a->config.seed)
        throw Error("train --resume: " + a->config.out + " was trained with seed " +
                    std::to_string(net.meta.seed) + ", not " + std::to_string(a->config.seed));
    } else {
      net.randomize(a->config.seed);
    }
    if (a->target_plies > 0)
      a->config.value = [plies = a->target_plies](const bgnet::Net& n, const backgammon::Board& b) {
        return bgsearch::evaluate_on_roll(n, b, plies);
      };
    std::cout << "training from game " << net.meta.games << " to " << a->config.games << " (seed "
              << a->config.seed << ", rate " << a->config.rate << ", lambda " << a->config.lambda
              << ", targets at " << a->target_plies << " ply) into " << a->config.out << std::endl;
    bgtrain::train(net, a->config, [](const bgtrain::Progress& p) {
      std::cout << "games " << p.games << "  " << p.seconds << " s  " << p.plies_per_game
                << " plies/game" << std::endl;
    });
  });
}

}  // namespace naqala::cli

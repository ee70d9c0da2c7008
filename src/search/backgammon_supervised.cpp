// Supervised training of the backgammon networks on our own deeper search's labels.
#include "search/backgammon_supervised.h"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <tuple>

#include "core/error.h"
#include "core/fnv1a.h"
#include "core/rng.h"
#include "search/backgammon_ply.h"

namespace naqala::bgsuper {

using bgnet::Mlp;
using bgnet::PositionClass;

namespace {

constexpr char kMagic[8] = {'N', 'Q', 'B', 'G', 'S', 'U', 'P', '1'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kRecordBytes = 2 * 25 + 5 * sizeof(float);
constexpr std::size_t kBlockHead = 8 + 4;  // game, count

template <class T>
void put(std::string& s, const T& v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
T get(const std::string& s, std::size_t at) {
  T v;
  std::memcpy(&v, s.data() + at, sizeof v);
  return v;
}

std::string header_bytes(const LabelConfig& c, std::uint64_t net_hash) {
  std::string s(kMagic, 8);
  put(s, kVersion);
  put(s, std::uint32_t(c.plies));
  put(s, c.seed);
  put(s, std::uint32_t(c.every));
  put(s, c.explore);
  put(s, std::uint32_t(c.explore_top));
  put(s, net_hash);
  put(s, fnv1a(s.data(), s.size()));
  return s;
}
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 4 + 4 + 4 + 8 + 8;

std::string block_bytes(std::uint64_t game, const std::vector<Record>& records) {
  std::string s;
  put(s, game);
  put(s, std::uint32_t(records.size()));
  for (const Record& r : records) {
    s.append(reinterpret_cast<const char*>(r.board[0].data()), 25);
    s.append(reinterpret_cast<const char*>(r.board[1].data()), 25);
    for (const float p : r.label.p) put(s, p);
  }
  put(s, fnv1a(s.data(), s.size()));
  return s;
}

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// The file's content and where its complete blocks end.
struct Scan {
  Dataset data;
  std::size_t complete_bytes = 0;
};

Scan scan(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("cannot open the backgammon dataset " + path);
  const std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (s.size() < 8 || std::memcmp(s.data(), kMagic, 8) != 0)
    throw Error(path + " is not a naqala backgammon dataset (magic NQBGSUP1 missing)");
  if (s.size() < kHeaderBytes) throw Error(path + ": the dataset header is truncated");
  if (fnv1a(s.data(), kHeaderBytes - 8) != get<std::uint64_t>(s, kHeaderBytes - 8))
    throw Error(path + ": the dataset header's checksum fails (the file is damaged)");
  if (get<std::uint32_t>(s, 8) != kVersion)
    throw Error(path + ": dataset format version " + std::to_string(get<std::uint32_t>(s, 8)) +
                ", this build reads " + std::to_string(kVersion));
  Scan out;
  Dataset& d = out.data;
  d.config.path = path;
  d.config.plies = int(get<std::uint32_t>(s, 12));
  d.config.seed = get<std::uint64_t>(s, 16);
  d.config.every = int(get<std::uint32_t>(s, 24));
  d.config.explore = get<float>(s, 28);
  d.config.explore_top = int(get<std::uint32_t>(s, 32));
  d.net_hash = get<std::uint64_t>(s, 36);
  std::size_t at = kHeaderBytes;
  while (at < s.size()) {
    if (s.size() - at < kBlockHead) break;
    const auto game = get<std::uint64_t>(s, at);
    const auto count = get<std::uint32_t>(s, at + 8);
    const std::size_t size = kBlockHead + std::size_t{count} * kRecordBytes + 8;
    if (s.size() - at < size) break;  // cut short by a kill: dropped, played again
    if (fnv1a(s.data() + at, size - 8) != get<std::uint64_t>(s, at + size - 8))
      throw Error(path + ": the block of game " + std::to_string(game) + " at byte " +
                  std::to_string(at) + " fails its checksum (the file is damaged)");
    if (game != d.games)
      throw Error(path + ": block " + std::to_string(d.games) + " holds game " +
                  std::to_string(game) + " (the file is damaged)");
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::size_t r = at + kBlockHead + i * kRecordBytes;
      Record rec;
      std::memcpy(rec.board[0].data(), s.data() + r, 25);
      std::memcpy(rec.board[1].data(), s.data() + r + 25, 25);
      for (int k = 0; k < 5; ++k) rec.label.p[k] = get<float>(s, r + 50 + 4 * k);
      d.records.push_back(rec);
      d.game.push_back(game);
    }
    ++d.games;
    at += size;
  }
  out.complete_bytes = at;
  d.partial_tail = at < s.size();
  return out;
}

}  // namespace

std::uint64_t weights_hash(const Net& net) {
  std::uint64_t h = kFnv1aBasis;
  for (const auto c : {PositionClass::Contact, PositionClass::Crashed, PositionClass::Race}) {
    const Mlp& m = net.mlp(c);
    for (const auto* w : {&m.w1, &m.b1, &m.w2, &m.b2})
      h = fnv1a(w->data(), w->size() * sizeof(float), h);
  }
  return h;
}

std::vector<Record> label_game(const Net& net, const LabelConfig& config, std::uint64_t game) {
  std::uint64_t mixed = config.seed ^ (game * 0x9e3779b97f4a7c15ULL);
  Rng rng(splitmix64(mixed));
  bgsearch::Config zero_ply;
  std::vector<Record> out;
  Board b = backgammon::start_board();
  int d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
  while (d0 == d1) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
  for (int ply = 0;; ++ply) {
    // Contact never comes back: the race that follows is the race network's.
    if (bgnet::classify(b[0], b[1]) == PositionClass::Race) break;
    if (rng.below(std::uint32_t(config.every)) == 0) out.push_back({b, {}});
    if (ply > 0) d0 = 1 + rng.below(6), d1 = 1 + rng.below(6);
    const bool explore = rng.uniform() < config.explore;
    const auto ranked = bgsearch::rank_moves(net, b, d0, d1, zero_ply);
    if (!ranked.moves.empty()) {
      const std::size_t top = std::min<std::size_t>(ranked.moves.size(), config.explore_top);
      const Board& after = ranked.moves[explore ? rng.below(std::uint32_t(top)) : 0].after;
      if (backgammon::checkers_off(after[0]) == backgammon::kCheckers) break;
      b = {after[1], after[0]};
    } else {
      b = {b[1], b[0]};
    }
  }
  for (Record& r : out) r.label = bgsearch::evaluate_on_roll(net, r.board, config.plies);
  return out;
}

Dataset read_dataset(const std::string& path) {
  return scan(path).data;
}

void check_distinct(std::span<const Dataset> data) {
  for (std::size_t i = 0; i < data.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      const LabelConfig &a = data[i].config, &b = data[j].config;
      if (a.seed == b.seed && a.every == b.every && a.explore == b.explore &&
          a.explore_top == b.explore_top && a.plies == b.plies &&
          data[i].net_hash == data[j].net_hash)
        throw Error("fit: the datasets " + b.path + " and " + a.path +
                    " hold the same games (the same seed " + std::to_string(a.seed) +
                    ", settings and labelling net); give only one of them, the longer");
    }
}

std::vector<Dataset> read_datasets(const std::vector<std::string>& paths) {
  if (paths.empty()) throw Error("fit: no dataset given (--data FILE, one or more)");
  std::vector<Dataset> out;
  out.reserve(paths.size());
  for (const std::string& p : paths) out.push_back(read_dataset(p));
  check_distinct(out);
  return out;
}

LabelProgress label(const Net& net, const LabelConfig& config,
                    const std::function<void(const LabelProgress&)>& report,
                    std::uint64_t report_every) {
  if (config.every < 1) throw Error("label: --every must be at least 1");
  if (config.explore_top < 1) throw Error("label: --explore-top must be at least 1");
  if (config.plies < 0 || config.plies > 2) throw Error("label: the label plies must be 0 to 2");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds();
  const std::uint64_t hash = weights_hash(net);
  const std::string header = header_bytes(config, hash);
  LabelProgress p;
  if (std::filesystem::exists(config.path)) {
    Scan s = scan(config.path);
    const Dataset& d = s.data;
    auto differs = [&](const std::string& what, const std::string& file, const std::string& now) {
      throw Error(config.path + " was labelled with " + what + " " + file + ", not " + now +
                  ": resume it with the same settings, or write a new file");
    };
    if (d.config.seed != config.seed)
      differs("seed", std::to_string(d.config.seed), std::to_string(config.seed));
    if (d.config.every != config.every)
      differs("--every", std::to_string(d.config.every), std::to_string(config.every));
    if (d.config.explore != config.explore || d.config.explore_top != config.explore_top)
      differs("--explore/--explore-top",
              std::to_string(d.config.explore) + "/" + std::to_string(d.config.explore_top),
              std::to_string(config.explore) + "/" + std::to_string(config.explore_top));
    if (d.config.plies != config.plies)
      differs("label plies", std::to_string(d.config.plies), std::to_string(config.plies));
    if (d.net_hash != hash) differs("weights of hash", std::to_string(d.net_hash), "these");
    if (d.partial_tail) std::filesystem::resize_file(config.path, s.complete_bytes);
    p.games = d.games;
    p.positions = d.records.size();
  } else {
    std::ofstream f(config.path, std::ios::binary);
    f.write(header.data(), std::streamsize(header.size()));
    if (!f) throw Error("cannot write " + config.path);
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(config.path.c_str(), "ab"),
                                                    &std::fclose);
  if (!f) throw Error("cannot append to " + config.path);
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  auto update = [&] {
    p.seconds = elapsed();
    p.cpu_seconds = cpu_seconds() - cpu_start;
  };
  while (p.games < config.games) {
    const auto records = label_game(net, config, p.games);
    const std::string block = block_bytes(p.games, records);
    if (std::fwrite(block.data(), 1, block.size(), f.get()) != block.size() ||
        std::fflush(f.get()) != 0)
      throw Error("cannot append to " + config.path);
    ++p.games;
    p.positions += records.size();
    p.new_positions += records.size();
    const bool out_of_time = config.seconds > 0 && elapsed() >= config.seconds;
    if (out_of_time) break;
    if (p.games % report_every == 0) {
      update();
      report(p);
    }
  }
  update();
  report(p);
  return p;
}

// ---------------------------------------------------------------------------------------------
// Fitting.

namespace {

bool trained_class(PositionClass c) {
  return c != PositionClass::Race;
}

// Adam or momentum state of one perceptron: its gradient and the optimiser's moments, each an
// Mlp of the same sizes.
struct Slot {
  Mlp grad, m, v;
  int count = 0;            // examples in the current batch
  std::uint64_t steps = 0;  // batches that had some (Adam's bias correction)
};

void zero(Mlp& m) {
  for (auto* w : {&m.w1, &m.b1, &m.w2, &m.b2}) std::fill(w->begin(), w->end(), 0.0f);
}

void step(Mlp& net, Slot& s, const FitConfig& c, float rate) {
  if (s.count == 0) return;
  const std::uint64_t t = ++s.steps;
  const float inv = 1.0f / float(s.count);
  std::vector<float>* nw[4] = {&net.w1, &net.b1, &net.w2, &net.b2};
  std::vector<float>* gw[4] = {&s.grad.w1, &s.grad.b1, &s.grad.w2, &s.grad.b2};
  std::vector<float>* mw[4] = {&s.m.w1, &s.m.b1, &s.m.w2, &s.m.b2};
  std::vector<float>* vw[4] = {&s.v.w1, &s.v.b1, &s.v.w2, &s.v.b2};
  constexpr float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
  const float c1 = 1 - std::pow(b1, float(t)), c2 = 1 - std::pow(b2, float(t));
  for (int k = 0; k < 4; ++k) {
    float* w = nw[k]->data();
    float* g = gw[k]->data();
    float* m = mw[k]->data();
    float* v = vw[k]->data();
    const std::size_t n = nw[k]->size();
    if (c.optimizer == Optimizer::Adam) {
      for (std::size_t i = 0; i < n; ++i) {
        const float gi = g[i] * inv;  // the direction that lowers the loss
        m[i] = b1 * m[i] + (1 - b1) * gi;
        v[i] = b2 * v[i] + (1 - b2) * gi * gi;
        w[i] += rate * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
        g[i] = 0;
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        m[i] = c.momentum * m[i] + g[i] * inv;
        w[i] += rate * m[i];
        g[i] = 0;
      }
    }
  }
  s.count = 0;
}

}  // namespace

std::pair<double, double> loss(const Net& net, const std::vector<Record>& records) {
  if (records.empty()) return {0, 0};
  double ce = 0, se = 0;
  bgnet::InputList in;
  for (const Record& r : records) {
    const int n = bgnet::encode(r.board[0], r.board[1], in);
    float out[bgnet::kOutputs];
    net.mlp(bgnet::classify(r.board[0], r.board[1])).forward(in.data(), n, out);
    for (int o = 0; o < bgnet::kOutputs; ++o) {
      const double y = std::clamp(double(out[o]), 1e-7, 1 - 1e-7), t = r.label.p[o];
      ce -= t * std::log(y) + (1 - t) * std::log(1 - y);
    }
    const double e = net.evaluate(r.board[0], r.board[1]).equity() - r.label.equity();
    se += e * e;
  }
  return {ce / double(records.size()), std::sqrt(se / double(records.size()))};
}

void fit(Net& net, const Dataset& data, const FitConfig& config,
         const std::function<void(const FitProgress&)>& report) {
  fit(net, std::span<const Dataset>(&data, 1), config, report);
}

void fit(Net& net, std::span<const Dataset> datasets, const FitConfig& config,
         const std::function<void(const FitProgress&)>& report) {
  check_distinct(datasets);
  if (config.batch < 1 || config.epochs < 0 || config.holdout < 2)
    throw Error("fit: the batch must be at least 1, the epochs at least 0, --holdout at least 2");
  if (config.final_rate < 0) throw Error("fit: --final-rate must be at least 0");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::vector<Record> train, held;
  for (const Dataset& data : datasets)
    for (std::size_t i = 0; i < data.records.size(); ++i) {
      const Record& r = data.records[i];
      if (!trained_class(bgnet::classify(r.board[0], r.board[1]))) continue;
      (data.game[i] % std::uint64_t(config.holdout) == std::uint64_t(config.holdout) - 1 ? held
                                                                                         : train)
          .push_back(r);
    }
  if (train.empty()) throw Error("fit: the dataset has no contact or crashed training positions");
  FitProgress p;
  p.train_positions = train.size();
  p.holdout_positions = held.size();
  auto [l0, r0] = loss(net, held);
  p.holdout_loss = l0;
  p.holdout_rmse = r0;
  p.train_loss = loss(net, train).first;
  report(p);
  std::array<std::unique_ptr<Slot>, bgnet::kNetClasses> slots;
  for (auto& s : slots) {
    s = std::make_unique<Slot>();
    zero(s->grad), zero(s->m), zero(s->v);
  }
  std::vector<std::size_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  Rng rng(config.seed);
  bgnet::InputList in;
  const std::size_t batches_per_epoch =
      (order.size() + std::size_t(config.batch) - 1) / std::size_t(config.batch);
  const double all_batches = double(batches_per_epoch) * double(config.epochs);
  std::size_t batch_index = 0;
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[rng.below(std::uint32_t(i))]);
    double total = 0;
    for (std::size_t b = 0; b < order.size(); b += std::size_t(config.batch)) {
      const std::size_t end = std::min(order.size(), b + std::size_t(config.batch));
      for (std::size_t i = b; i < end; ++i) {
        const Record& r = train[order[i]];
        const auto c = bgnet::classify(r.board[0], r.board[1]);
        const int n = bgnet::encode(r.board[0], r.board[1], in);
        Slot& s = *slots[int(c)];
        total += net.mlp(c).backward(in.data(), n, r.label.p.data(), 1.0f, s.grad);
        ++s.count;
      }
      const float rate =
          config.final_rate > 0
              ? float(config.rate + (config.final_rate - config.rate) *
                                        (double(batch_index) / std::max(1.0, all_batches - 1)))
              : config.rate;
      ++batch_index;
      for (const auto c : {PositionClass::Contact, PositionClass::Crashed})
        step(net.mlp(c), *slots[int(c)], config, rate);
    }
    p.epoch = epoch;
    p.train_loss = total / double(order.size());
    std::tie(p.holdout_loss, p.holdout_rmse) = loss(net, held);
    p.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!config.out.empty()) net.save(config.out);
    report(p);
  }
}

}  // namespace naqala::bgsuper

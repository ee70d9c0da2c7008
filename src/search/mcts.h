#pragma once
// Monte Carlo tree search (UCT) over any GameState: selection by UCB1, expansion of every
// child at once, a random playout (or an evaluation) at the leaf, and backpropagation of
// the result from each mover's view. The tree lives in one flat node pool, is kept between
// moves and re-rooted when the next position is found in it (tree reuse). Several threads
// search independent trees that are merged at the root (root parallelism).
//
// An extra turn needs no special case: every node remembers who moved into it, and its
// statistics are from that player's view. At a joint node (both players choose at once,
// search/joint.h) selection is decoupled: each player picks his own half by UCB1 over his own
// statistics of that half, summed over the children that share it.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <thread>
#include <vector>

#include "core/rng.h"
#include "games/game.h"
#include "search/joint.h"
#include "search/values.h"

namespace naqala::search {

struct MctsOptions {
  double exploration = 1.0;  // UCB1 constant c: mean + c * sqrt(ln N / n)
  int threads = 1;
  int max_playout_plies = 1000;       // a playout still running then is scored by the stores
  std::size_t max_nodes = 4'000'000;  // per thread; a full pool stops expanding
  bool reuse_tree = true;
  std::uint64_t seed = 1;
  // With an evaluation at the leaf instead of a playout: the evaluation v (values.h units)
  // counts as a win with probability 1 / (1 + exp(-v / eval_scale)).
  bool eval_leaf = false;
  double eval_scale = 3.0 * kPoint;
  // Simulations selected one after another and then played out side by side (1 to kMaxMctsBatch).
  // Each counts its visit on its path when selected (a virtual loss until its result is in),
  // so the next one descends elsewhere; the playouts, independent, keep the core busy where
  // one alone waits on each ply's result (a sowing depends on the one before).
  int batch = 4;
};
inline constexpr int kMaxMctsBatch = 8;

template <GameState S>
class Mcts {
 public:
  using Move = typename S::Move;
  using MoveList = typename S::MoveList;
  using LeafEval = std::function<int(const S&)>;  // mover's view; used when eval_leaf is set

  struct MoveStats {
    Move move;
    std::uint64_t visits;
    double win_rate;  // for the mover at the root
    double margin;    // mean final point margin for the mover at the root
  };
  struct Result {
    bool has_move = false;
    Move best{};
    double win_rate = 0.5;
    double margin = 0;
    std::vector<Move> pv;
    std::vector<MoveStats> moves;  // most visited first
    std::uint64_t simulations = 0;
    std::uint64_t reused = 0;  // simulations inherited from the previous search
    int depth = 0;             // deepest line of the tree
    double seconds = 0;
  };

  explicit Mcts(MctsOptions options = {}, LeafEval eval = {})
      : options_(options), eval_(std::move(eval)) {}
  void set_options(const MctsOptions& o) {
    options_ = o;
    trees_.clear();
  }
  void stop() { stop_.store(true); }

  // Runs until `simulations` (summed over threads) or `seconds` are reached (0 = unset; with
  // neither, 10000 simulations).
  Result search(const S& root, std::uint64_t simulations, double seconds) {
    Result result;
    const auto start = std::chrono::steady_clock::now();
    if (root.is_over()) return result;
    if (simulations == 0 && seconds <= 0) simulations = 10000;
    const int threads = std::max(1, options_.threads);
    if (static_cast<int>(trees_.size()) != threads) {
      trees_.clear();
      for (int i = 0; i < threads; ++i)
        trees_.emplace_back(options_, eval_, options_.seed + 7919 * i);
    }
    stop_.store(false);
    std::atomic<std::uint64_t> done{0};
    for (auto& t : trees_) {
      t.set_root(root);
      result.reused += t.node(0).visits;
    }
    const int batch = std::clamp(options_.batch, 1, kMaxMctsBatch);
    auto run = [&](Tree& tree) {
      while (!stop_.load(std::memory_order_relaxed)) {
        std::uint64_t count = 0;
        while (count < 64) count += tree.simulate(batch);
        const std::uint64_t total = done.fetch_add(count, std::memory_order_relaxed) + count;
        if (simulations && total >= simulations) break;
        if (seconds > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >=
                seconds)
          break;
      }
      stop_.store(true);
    };
    std::vector<std::thread> helpers;
    for (int i = 1; i < threads; ++i) helpers.emplace_back([&, i] { run(trees_[i]); });
    run(trees_[0]);
    for (auto& h : helpers) h.join();

    // Merge the root children of every tree by move.
    MoveList moves;
    root.legal_moves(moves);
    for (Move m : moves) {
      MoveStats st{m, 0, 0, 0};
      double wins = 0, margin = 0;
      for (auto& t : trees_) {
        const auto* child = t.root_child(m);
        if (!child || child->visits == 0) continue;
        st.visits += child->visits;
        wins += child->wins;
        margin += child->margin;
      }
      st.win_rate = st.visits ? wins / st.visits : 0.5;
      st.margin = st.visits ? margin / st.visits : 0;
      result.moves.push_back(st);
    }
    std::stable_sort(result.moves.begin(), result.moves.end(),
                     [](const MoveStats& a, const MoveStats& b) {
                       return a.visits != b.visits ? a.visits > b.visits : a.win_rate > b.win_rate;
                     });
    if (!result.moves.empty()) {
      result.has_move = true;
      const MoveStats* best = &result.moves.front();
      if constexpr (JointMoveState<S>) {
        // Each player's half: the one he visited most (summed over the other's halves).
        if (is_joint_node(root)) {
          std::array<std::array<std::uint64_t, kJointLabels>, 2> visits{};
          for (const auto& m : result.moves)
            for (Player p : {Player::South, Player::North})
              visits[index(p)][joint_half(m.move, p)] += m.visits;
          auto most = [](const auto& v) {
            return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
          };
          const Move joint = joint_move<S>(most(visits[0]), most(visits[1]));
          for (const auto& m : result.moves)
            if (m.move == joint) best = &m;
        }
      }
      result.best = best->move;
      result.win_rate = best->win_rate;
      result.margin = best->margin;
      result.pv = trees_[0].principal_variation(result.best);
    }
    result.simulations = done.load();
    for (auto& t : trees_) result.depth = std::max(result.depth, t.max_depth());
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

 private:
  // 32 bytes for the sowing games' moves: two nodes a cache line.
  struct Node {
    double wins = 0;          // sum of results for `mover` (1 win, 0.5 draw, 0 loss)
    std::int64_t margin = 0;  // sum of final point margins for `mover`
    std::uint32_t first_child = 0;
    std::uint32_t visits = 0;
    Move move{};
    std::uint16_t children = 0;
    // Children are in a random order (shuffled when expanded) and visited first in that order:
    // the first `tried` have been visited.
    std::uint16_t tried = 0;
    Player mover = Player::South;  // who played `move`: the statistics are from his view
    std::uint8_t expanded = 0;
  };

  // 1/n, 1/sqrt(n) and sqrt(ln n) for the visit counts of most nodes, so that selection does
  // no division, square root or logarithm there.
  struct UcbTables {
    static constexpr std::uint32_t kSize = 4096;
    std::array<double, kSize> inverse{}, inverse_sqrt{}, sqrt_log{};
    UcbTables() {
      for (std::uint32_t n = 1; n < kSize; ++n) {
        inverse[n] = 1.0 / n;
        inverse_sqrt[n] = 1.0 / std::sqrt(static_cast<double>(n));
        sqrt_log[n] = std::sqrt(std::log(static_cast<double>(n)));
      }
    }
    double inv(std::uint32_t n) const { return n < kSize ? inverse[n] : 1.0 / n; }
    double inv_sqrt(std::uint32_t n) const {
      return n < kSize ? inverse_sqrt[n] : 1.0 / std::sqrt(static_cast<double>(n));
    }
    double root_log(std::uint32_t n) const {
      return n < kSize ? sqrt_log[n] : std::sqrt(std::log(static_cast<double>(n)));
    }
  };
  static const UcbTables& ucb() {
    static const UcbTables tables;
    return tables;
  }

  class Tree {
   public:
    Tree(const MctsOptions& o, const LeafEval& e, std::uint64_t seed)
        : options_(o), eval_(e), rng_(seed) {}

    const Node& node(std::uint32_t i) const { return nodes_[i]; }
    int max_depth() const { return max_depth_; }

    const Node* root_child(Move m) const {
      const Node& r = nodes_[0];
      for (std::uint32_t i = 0; i < r.children; ++i)
        if (nodes_[r.first_child + i].move == m) return &nodes_[r.first_child + i];
      return nullptr;
    }

    // Keeps the subtree of `root` if it is in the tree (a few plies below the old root),
    // else starts afresh.
    void set_root(const S& root) {
      const std::uint64_t key = root.hash();
      if (options_.reuse_tree && !nodes_.empty() && have_root_) {
        if (root_state_->hash() == key) {
          root_state_ = root;
          return;
        }
        const std::uint32_t found = find(*root_state_, 0, key, 4);
        if (found != kNone) {
          reroot(found);
          root_state_ = root;
          max_depth_ = 0;
          return;
        }
      }
      nodes_.clear();
      nodes_.reserve(std::min<std::size_t>(options_.max_nodes, 1 << 16));
      Node r;
      r.mover = opponent(root.to_move());
      nodes_.push_back(r);
      root_state_ = root;
      have_root_ = true;
      max_depth_ = 0;
    }

    // Runs `count` simulations (selected in turn, played out side by side); returns count.
    int simulate(int count) {
      for (int b = 0; b < count; ++b) {
        leaves_[b] = *root_state_;
        S& s = *leaves_[b];
        auto& path = paths_[b];
        path.clear();
        std::uint32_t current = 0;
        path.push_back(0);
        ++nodes_[0].visits;
        int depth = 0;
        while (!s.is_over()) {
          Node& n = nodes_[current];
          if (!n.expanded) {
            if (n.visits == 1 && current != 0) break;  // a new leaf: play out from here
            if (!expand(current, s)) break;            // the pool is full
          }
          current = is_joint_node(s) ? select_joint(current) : select(current);
          s.play(nodes_[current].move);
          path.push_back(current);
          ++nodes_[current].visits;
          ++depth;
        }
        max_depth_ = std::max(max_depth_, depth);
      }
      double south_result[kMaxMctsBatch];
      int south_margin[kMaxMctsBatch];
      leaf_results(count, south_result, south_margin);
      for (int b = 0; b < count; ++b)
        for (std::uint32_t i : paths_[b]) {
          Node& n = nodes_[i];
          const bool south = n.mover == Player::South;
          n.wins += south ? south_result[b] : 1.0 - south_result[b];
          n.margin += south ? south_margin[b] : -south_margin[b];
        }
      return count;
    }

    std::vector<Move> principal_variation(Move first) const {
      std::vector<Move> pv;
      const Node* n = root_child(first);
      while (n) {
        pv.push_back(n->move);
        if (!n->expanded || n->children == 0) break;
        const Node* best = nullptr;
        for (std::uint32_t i = 0; i < n->children; ++i) {
          const Node& c = nodes_[n->first_child + i];
          if (!best || c.visits > best->visits) best = &c;
        }
        if (!best || best->visits == 0) break;
        n = best;
      }
      return pv;
    }

   private:
    static constexpr std::uint32_t kNone = ~0u;

    bool expand(std::uint32_t index, const S& s) {
      MoveList moves;
      s.legal_moves(moves);
      if (nodes_.size() + moves.size() > options_.max_nodes) return false;
      const std::uint32_t first = static_cast<std::uint32_t>(nodes_.size());
      const Player mover = s.to_move();
      // A random order, so that the unvisited children are tried without favouring an index.
      for (std::size_t i = moves.size(); i > 1; --i)
        std::swap(moves[i - 1], moves[rng_.below(static_cast<std::uint32_t>(i))]);
      for (Move m : moves) {
        Node c;
        c.move = m;
        c.mover = mover;
        nodes_.push_back(c);
      }
      Node& n = nodes_[index];  // after the pushes: the pool may have moved
      n.first_child = first;
      n.children = static_cast<std::uint16_t>(moves.size());
      n.expanded = 1;
      return true;
    }

    std::uint32_t select(std::uint32_t index) {
      Node& n = nodes_[index];
      // Unvisited children first (they are in a random order).
      if (n.tried < n.children) return n.first_child + n.tried++;
      const UcbTables& t = ucb();
      const double explore = options_.exploration * t.root_log(n.visits);
      double best = -1;
      std::uint32_t pick = n.first_child;
      const Node* c = &nodes_[n.first_child];
      for (std::uint32_t i = 0; i < n.children; ++i) {
        const double score = c[i].wins * t.inv(c[i].visits) + explore * t.inv_sqrt(c[i].visits);
        if (score > best) {
          best = score;
          pick = n.first_child + i;
        }
      }
      return pick;
    }

    // Decoupled UCT at a joint node: each player's half by UCB1 over that half's visits and
    // results (his own view), unvisited halves first; the child is the pair of halves.
    std::uint32_t select_joint(std::uint32_t node) {
      if constexpr (JointMoveState<S>) {
        const Node& n = nodes_[node];
        std::array<std::array<double, kJointLabels>, 2> wins{};
        std::array<std::array<std::uint32_t, kJointLabels>, 2> visits{};
        std::array<std::uint64_t, 2> present{};  // bit l: label l is a legal half
        const Node* c = &nodes_[n.first_child];
        for (std::uint32_t i = 0; i < n.children; ++i) {
          for (Player p : {Player::South, Player::North}) {
            const int l = joint_half(c[i].move, p);
            present[index(p)] |= std::uint64_t{1} << l;
            visits[index(p)][l] += c[i].visits;
            // A child's statistics are for its mover (the joint node's to_move()).
            wins[index(p)][l] += p == c[i].mover ? c[i].wins : c[i].visits - c[i].wins;
          }
        }
        int half[2];
        for (int p = 0; p < 2; ++p) {
          std::uint32_t unvisited[kJointLabels];
          std::uint32_t count = 0;
          for (int l = 0; l < kJointLabels; ++l)
            if ((present[p] >> l) & 1 && visits[p][l] == 0) unvisited[count++] = l;
          if (count) {
            half[p] = static_cast<int>(unvisited[rng_.below(count)]);
            continue;
          }
          const double log_n = std::log(static_cast<double>(std::max(1u, n.visits)));
          double best = -1;
          for (int l = 0; l < kJointLabels; ++l) {
            if (!((present[p] >> l) & 1)) continue;
            const double score =
                wins[p][l] / visits[p][l] + options_.exploration * std::sqrt(log_n / visits[p][l]);
            if (score > best) best = score, half[p] = l;
          }
        }
        const Move joint = joint_move<S>(half[0], half[1]);
        for (std::uint32_t i = 0; i < n.children; ++i)
          if (c[i].move == joint) return n.first_child + i;
      }
      return select(node);  // not a product of halves: plain UCB1
    }

    // The results of the games from the leaves on, for South: 1 win, 0.5 draw, 0 loss, and
    // the final point margin. The playouts advance together, one ply of each in turn.
    void leaf_results(int count, double* south_result, int* south_margin) {
      if (options_.eval_leaf && eval_) {
        for (int b = 0; b < count; ++b) {
          const S& s = *leaves_[b];
          if (s.is_over()) {
            score(s, south_result[b], south_margin[b]);
            continue;
          }
          const int v = eval_(s);
          const double p = 1.0 / (1.0 + std::exp(-v / options_.eval_scale));
          const bool south = s.to_move() == Player::South;
          south_result[b] = south ? p : 1.0 - p;
          south_margin[b] = (south ? v : -v) / kPoint;
        }
        return;
      }
      std::array<bool, kMaxMctsBatch> stuck{};  // no legal move in a game not over
      for (int ply = 0; ply < options_.max_playout_plies; ++ply) {
        bool playing = false;
        for (int b = 0; b < count; ++b) {
          S& s = *leaves_[b];
          if (s.is_over() || stuck[b]) continue;
          playing = true;
          if constexpr (requires { s.random_move(rng_); }) {
            s.play(s.random_move(rng_));
          } else {
            MoveList moves;
            s.legal_moves(moves);
            if (moves.empty()) {
              stuck[b] = true;
              continue;
            }
            s.play(moves[rng_.below(static_cast<std::uint32_t>(moves.size()))]);
          }
        }
        if (!playing) break;
      }
      for (int b = 0; b < count; ++b) score(*leaves_[b], south_result[b], south_margin[b]);
    }

    static void score(const S& s, double& south_result, int& south_margin) {
      const Outcome o = s.outcome();
      south_margin = o.scores[0] - o.scores[1];
      if (s.is_over()) {
        south_result = o.south_points();
      } else {
        // A playout cut short (an endless cycle of random moves): the stores decide.
        south_result = south_margin > 0 ? 1.0 : south_margin < 0 ? 0.0 : 0.5;
      }
    }

    // Breadth-first search for a node whose position has `key`, at most `depth` plies down.
    std::uint32_t find(const S& s, std::uint32_t index, std::uint64_t key, int depth) const {
      if (depth == 0) return kNone;
      const Node& n = nodes_[index];
      if (!n.expanded) return kNone;
      for (std::uint32_t i = 0; i < n.children; ++i) {
        S child = s;
        child.play(nodes_[n.first_child + i].move);
        if (child.hash() == key) return n.first_child + i;
      }
      for (std::uint32_t i = 0; i < n.children; ++i) {
        S child = s;
        child.play(nodes_[n.first_child + i].move);
        if (child.is_over()) continue;
        const std::uint32_t found = find(child, n.first_child + i, key, depth - 1);
        if (found != kNone) return found;
      }
      return kNone;
    }

    // Copies the subtree under `index` into a fresh pool with it as the root.
    void reroot(std::uint32_t index) {
      std::vector<Node> fresh;
      fresh.reserve(nodes_.size());
      fresh.push_back(nodes_[index]);
      for (std::size_t i = 0; i < fresh.size(); ++i) {
        Node& n = fresh[i];
        if (!n.expanded) continue;
        const std::uint32_t first = static_cast<std::uint32_t>(fresh.size());
        const std::uint32_t old_first = n.first_child;
        const std::uint16_t count = n.children;
        for (std::uint32_t k = 0; k < count; ++k) fresh.push_back(nodes_[old_first + k]);
        fresh[i].first_child = first;  // `n` may dangle after the pushes
      }
      nodes_ = std::move(fresh);
    }

    const MctsOptions& options_;
    const LeafEval& eval_;
    PlayoutRng rng_;
    std::vector<Node> nodes_;
    std::array<std::vector<std::uint32_t>, kMaxMctsBatch> paths_;
    std::optional<S> root_state_;
    std::array<std::optional<S>, kMaxMctsBatch> leaves_;  // the batch's leaf positions
    bool have_root_ = false;
    int max_depth_ = 0;
  };

  MctsOptions options_;
  LeafEval eval_;
  std::vector<Tree> trees_;
  std::atomic<bool> stop_{false};
};

}  // namespace naqala::search

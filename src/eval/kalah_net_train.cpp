#include "eval/kalah_net_train.h"

#include <algorithm>

#include "core/error.h"

namespace naqala::eval {

int kalah_net_active(const KalahNet& net, const sowing::State& s, int* out) {
  const sowing::Rules& r = s.rules();
  const Player me = s.to_move(), you = opponent(me);
  std::uint8_t mine[8], theirs[8];
  for (int i = 0; i < net.pits; ++i) {
    mine[i] = static_cast<std::uint8_t>(std::min(s.seeds(r.first_pit(me) + i), 255));
    theirs[i] = static_cast<std::uint8_t>(std::min(s.seeds(r.first_pit(you) + i), 255));
  }
  return net.active(mine, theirs, out);
}

KalahNetFit train_kalah_net(const std::vector<LabelledPosition>& data, int max_seeds,
                            const std::function<double(const sowing::State&)>& before,
                            const KalahNetTrainOptions& o) {
  if (data.empty()) throw Error("no positions to train the network on");
  KalahNetFit fit;
  KalahNet& net = fit.net;
  net.pits = data.front().state.rules().pits;
  net.max_seeds = max_seeds;
  std::vector<NetSample> samples;
  std::vector<const LabelledPosition*> of;  // each sample's position
  for (const auto& p : data) {
    const sowing::State& s = p.state;
    const int stores = s.store(Player::South) + s.store(Player::North);
    if (s.rules().total_seeds - stores > max_seeds || s.is_over()) continue;
    if (s.rules().pits != net.pits) throw Error("the positions are of boards of different widths");
    NetSample x;
    x.n = kalah_net_active(net, s, x.active.data());
    const int diff = s.store(s.to_move()) - s.store(opponent(s.to_move()));
    x.target = static_cast<float>(p.label - diff);
    samples.push_back(x);
    of.push_back(&p);
  }
  if (samples.empty())
    throw Error("no positions of at most " + std::to_string(max_seeds) +
                " seeds in the pits to train the network on");
  static_cast<SparseNetFit&>(fit) = train_sparse_net(
      net, net.inputs(), samples,
      [&](std::size_t i) { return before(of[i]->state) - of[i]->label; }, o);
  return fit;
}

}  // namespace naqala::eval

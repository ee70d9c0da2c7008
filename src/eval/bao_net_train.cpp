#include "eval/bao_net_train.h"

#include "core/error.h"
#include "search/values.h"

namespace naqala::eval {

BaoNetFit train_bao_net(const std::vector<std::pair<bao::State, double>>& data, const BaoEval& base,
                        int counts, const SparseNetTrainOptions& o) {
  if (data.empty()) throw Error("no positions to train the network on");
  BaoNetFit fit;
  fit.net.counts = counts;
  BaoEval plain = base;
  plain.net = nullptr;
  std::vector<NetSample> samples(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto& [s, label] = data[i];
    NetSample& x = samples[i];
    x.n = fit.net.active(s, x.active.data());
    x.target = static_cast<float>(label - plain(s) / double(search::kPoint));
  }
  static_cast<SparseNetFit&>(fit) = train_sparse_net(
      fit.net, fit.net.inputs(), samples, [&](std::size_t i) { return -double(samples[i].target); },
      o);
  return fit;
}

}  // namespace naqala::eval

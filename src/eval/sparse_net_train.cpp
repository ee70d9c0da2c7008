#include "eval/sparse_net_train.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/rng.h"

namespace naqala::eval {

namespace {

struct Adam {
  std::vector<float> m, v;
  explicit Adam(std::size_t n) : m(n), v(n) {}
  void step(float* w, const float* g, std::size_t n, float lr, int t) {
    constexpr float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    const float c1 = 1 - std::pow(b1, static_cast<float>(t));
    const float c2 = 1 - std::pow(b2, static_cast<float>(t));
    for (std::size_t i = 0; i < n; ++i) {
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
      w[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
    }
  }
};

double rms_of(const SparseNet& net, const std::vector<const NetSample*>& set) {
  if (set.empty()) return 0;
  double sum = 0;
  for (const NetSample* s : set) {
    const double e = net.forward(s->active.data(), s->n) - s->target;
    sum += e * e;
  }
  return std::sqrt(sum / static_cast<double>(set.size()));
}

}  // namespace

SparseNetFit train_sparse_net(SparseNet& net, int inputs, const std::vector<NetSample>& samples,
                              const std::function<double(std::size_t i)>& before_error,
                              const SparseNetTrainOptions& o) {
  if (o.hidden < 1 || o.hidden > kNetMaxHidden)
    throw Error("a network of 1 to " + std::to_string(kNetMaxHidden) + " hidden units");
  SparseNetFit fit;
  net.hidden = o.hidden;
  const int h = net.hidden;
  Rng rng(o.seed);
  std::vector<const NetSample*> train, held;
  double before_sum = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (rng.uniform() < o.held_out) {
      const double e = before_error(i);
      before_sum += e * e;
      held.push_back(&samples[i]);
    } else {
      train.push_back(&samples[i]);
    }
  }
  if (train.empty()) throw Error("no samples to train the network on (all held out)");
  fit.train = train.size();
  fit.held_out = held.size();
  fit.rms_before = held.empty() ? 0 : std::sqrt(before_sum / static_cast<double>(held.size()));
  // Small random first-layer weights; the hidden units start inside their linear range.
  net.w1.resize(static_cast<std::size_t>(inputs) * h);
  for (auto& w : net.w1) w = static_cast<float>((rng.uniform() * 2 - 1) * 0.1);
  net.b1.assign(h, 0.5f);
  net.w2.resize(h);
  for (auto& w : net.w2) w = static_cast<float>((rng.uniform() * 2 - 1) * 0.5);
  net.b2 = 0;
  Adam a1(net.w1.size()), ab1(h), a2(h), ab2(1);
  std::vector<float> g1(net.w1.size()), gb1(h), g2(h);
  std::vector<int> touched;  // first-layer rows with a gradient this batch
  std::vector<char> is_touched(inputs);
  std::vector<std::size_t> order(train.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  int t = 0;
  for (int epoch = 0; epoch < o.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[rng.below(static_cast<std::uint32_t>(i))]);
    const float lr =
        static_cast<float>(o.learning_rate * (1 - 0.9 * epoch / std::max(1, o.epochs - 1)));
    for (std::size_t first = 0; first < order.size(); first += o.batch) {
      const std::size_t last = std::min(order.size(), first + o.batch);
      const float scale = 2.0f / static_cast<float>(last - first);
      std::fill(gb1.begin(), gb1.end(), 0.0f);
      std::fill(g2.begin(), g2.end(), 0.0f);
      float gb2 = 0;
      for (const int row : touched) {
        std::fill(g1.begin() + static_cast<std::ptrdiff_t>(row) * h,
                  g1.begin() + static_cast<std::ptrdiff_t>(row + 1) * h, 0.0f);
        is_touched[row] = 0;
      }
      touched.clear();
      for (std::size_t k = first; k < last; ++k) {
        const NetSample& x = *train[order[k]];
        float pre[kNetMaxHidden], act[kNetMaxHidden];
        for (int j = 0; j < h; ++j) pre[j] = net.b1[j];
        for (int a = 0; a < x.n; ++a) {
          const float* row = net.w1.data() + static_cast<std::size_t>(x.active[a]) * h;
          for (int j = 0; j < h; ++j) pre[j] += row[j];
        }
        float out = net.b2;
        for (int j = 0; j < h; ++j) {
          act[j] = std::min(std::max(pre[j], 0.0f), 1.0f);
          out += net.w2[j] * act[j];
        }
        const float d = (out - x.target) * scale;  // d(mean squared error)/d(out)
        gb2 += d;
        float dh[kNetMaxHidden];
        for (int j = 0; j < h; ++j) {
          g2[j] += d * act[j];
          dh[j] = pre[j] > 0 && pre[j] < 1 ? d * net.w2[j] : 0.0f;
          gb1[j] += dh[j];
        }
        for (int a = 0; a < x.n; ++a) {
          const int r = x.active[a];
          if (!is_touched[r]) {
            is_touched[r] = 1;
            touched.push_back(r);
          }
          float* g = g1.data() + static_cast<std::size_t>(r) * h;
          for (int j = 0; j < h; ++j) g[j] += dh[j];
        }
      }
      ++t;
      // Dense Adam: a row without a gradient this batch still moves by its momentum.
      a1.step(net.w1.data(), g1.data(), g1.size(), lr, t);
      ab1.step(net.b1.data(), gb1.data(), gb1.size(), lr, t);
      a2.step(net.w2.data(), g2.data(), g2.size(), lr, t);
      ab2.step(&net.b2, &gb2, 1, lr, t);
    }
    if (o.progress) o.progress(epoch + 1, rms_of(net, train), rms_of(net, held));
  }
  fit.rms_train = rms_of(net, train);
  fit.rms_after = rms_of(net, held);
  return fit;
}

}  // namespace naqala::eval

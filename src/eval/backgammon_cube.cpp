// Janowski's money cube model.
#include "eval/backgammon_cube.h"

#include <algorithm>

namespace naqala::bgcube {

using bgnet::Probs;

float efficiency(bool race) {
  return race ? 0.85f : 0.68f;
}

float cubeful(const Probs& pr, Access access, float x) {
  const float p = std::clamp(pr[Probs::Win], 1e-6f, 1 - 1e-6f);
  // Average values of a win and of a loss (gammons and backgammons included).
  const float w = 1 + (pr[Probs::WinGammon] + pr[Probs::WinBackgammon]) / p;
  const float l = 1 + (pr[Probs::LoseGammon] + pr[Probs::LoseBackgammon]) / (1 - p);
  const float dead = p * (w + l) - l;
  // With a live cube the opponent passes a double from my cash point `cp` on, and I pass
  // his below my take point `tp`.
  const float tp = (l - 0.5f) / (w + l + 0.5f);
  const float cp = (l + 1) / (w + l + 0.5f);
  float live = 0;
  switch (access) {
    case Access::Mine:
      live = p < cp ? -l + (1 + l) * p / cp : 1 + (w - 1) * (p - cp) / (1 - cp);
      break;
    case Access::Theirs:
      live = p <= tp ? -l + (l - 1) * p / tp : -1 + (w + 1) * (p - tp) / (1 - tp);
      break;
    case Access::Centred:
      if (p < tp)
        live = -l + (l - 1) * p / tp;
      else if (p < cp)
        live = -1 + 2 * (p - tp) / (cp - tp);
      else
        live = 1 + (w - 1) * (p - cp) / (1 - cp);
      break;
  }
  return x * live + (1 - x) * dead;
}

Decision money_decision(const Probs& p, Access access, bool race) {
  const float x = efficiency(race);
  Decision d;
  d.no_double = cubeful(p, access, x);
  d.double_take = 2 * cubeful(p, Access::Theirs, x);
  d.double_pass = 1;
  d.should_take = d.double_take <= d.double_pass;
  const float doubled = std::min(d.double_take, d.double_pass);
  d.should_double = doubled > d.no_double;
  const std::string answer = d.should_take ? "take" : "pass";
  if (d.should_double)
    d.verdict = "Double, " + answer;
  else if (!d.should_take)
    d.verdict = "Too good, pass";
  else
    d.verdict = "No double, take";
  return d;
}

}  // namespace naqala::bgcube

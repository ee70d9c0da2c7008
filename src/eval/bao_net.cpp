#include "eval/bao_net.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/data_dir.h"
#include "core/error.h"
#include "core/read_once.h"
#include "core/text_file.h"

namespace naqala::eval {

BaoNet load_bao_net(const std::string& path) {
  std::istringstream in(read_text_file(path, "the network file"));
  BaoNet net;
  NetFileReader r(in, path);
  net.made_by =
      r.header("naqala-bao-net", 1, "'naqala-bao-net 1' (a Bao network file of version 1)");
  r.key_line("shape", "'shape COUNTS HIDDEN'");
  if (!(r.words() >> net.counts >> net.hidden) || net.counts < 2 || net.counts > 64 ||
      net.hidden < 1 || net.hidden > kNetMaxHidden)
    throw r.bad("'shape COUNTS HIDDEN' with 2-64 counts and 1-" + std::to_string(kNetMaxHidden) +
                " hidden units");
  read_net_layers(r, net, net.inputs());
  return net;
}

std::shared_ptr<const BaoNet> read_bao_net_once(const std::string& path) {
  return read_once<BaoNet, load_bao_net>(path);
}

void save_bao_net(const std::string& path, const BaoNet& net) {
  save_net_file(path,
                "naqala-bao-net 1\nmade-by " + net.made_by + "\nshape " +
                    std::to_string(net.counts) + " " + std::to_string(net.hidden) + "\n",
                net, net.inputs());
}

std::shared_ptr<const BaoNet> played_bao_net() {
  const char* env = std::getenv("NAQALA_BAO_NET");
  const std::string chosen = env ? env : "";
  if (chosen == "none") return nullptr;
  if (!chosen.empty()) return read_bao_net_once(chosen);
  const std::string path = data_dir() + "/bao/net.txt";
  if (!std::filesystem::exists(path)) return nullptr;
  return read_bao_net_once(path);
}

}  // namespace naqala::eval

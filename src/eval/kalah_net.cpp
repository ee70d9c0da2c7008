#include "eval/kalah_net.h"

#include <fstream>
#include <sstream>

#include "core/error.h"
#include "core/read_once.h"
#include "core/text_file.h"

namespace naqala::eval {

KalahNet load_kalah_net(const std::string& path) {
  std::istringstream in(read_text_file(path, "the network file"));
  KalahNet net;
  NetFileReader r(in, path);
  net.made_by =
      r.header("naqala-kalah-net", 1, "'naqala-kalah-net 1' (a Kalah network file of version 1)");
  r.key_line("shape", "'shape PITS HIDDEN MAX_SEEDS'");
  if (!(r.words() >> net.pits >> net.hidden >> net.max_seeds) || net.pits < 1 || net.pits > 8 ||
      net.hidden < 1 || net.hidden > kNetMaxHidden || net.max_seeds < 0)
    throw r.bad("'shape PITS HIDDEN MAX_SEEDS' with 1-8 pits and 1-" +
                std::to_string(kNetMaxHidden) + " hidden units");
  read_net_layers(r, net, net.inputs());
  return net;
}

std::shared_ptr<const KalahNet> read_kalah_net_once(const std::string& path) {
  return read_once<KalahNet, load_kalah_net>(path);
}

void save_kalah_net(const std::string& path, const KalahNet& net) {
  save_net_file(path,
                "naqala-kalah-net 1\nmade-by " + net.made_by + "\nshape " +
                    std::to_string(net.pits) + " " + std::to_string(net.hidden) + " " +
                    std::to_string(net.max_seeds) + "\n",
                net, net.inputs());
}

}  // namespace naqala::eval

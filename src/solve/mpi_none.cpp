// This naqala was built without MPI (OpenMPI's libopenmpi-dev was not found by CMake).
#include <cstdlib>

#include "core/error.h"
#include "solve/mpi.h"

namespace naqala::solve {

bool mpi_built_in() {
  return false;
}

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

void run_under_mpi(SowingDb::Parallel&, const std::function<void()>&) {
  throw Error(
      "MPI is not built in: this naqala was built without OpenMPI (install libopenmpi-dev and "
      "openmpi-bin, then build again), so it cannot build a database under mpirun");
}

}  // namespace naqala::solve

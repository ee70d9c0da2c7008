#include "solve/mpi.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "core/error.h"

namespace naqala::solve {

bool mpi_built_in() {
  return true;
}

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

void run_under_mpi(SowingDb::Parallel& parallel, const std::function<void()>& body) {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw Error("MPI_Init failed: is this run by mpirun?");
  MPI_Comm_rank(MPI_COMM_WORLD, &parallel.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &parallel.ranks);
  const int ranks = parallel.ranks;
  // Each rank sends its slice of the level to every other (a broadcast from each, in pieces
  // of at most 2^28 boards: MPI counts are ints).
  parallel.share = [ranks](std::uint16_t* values, std::uint64_t count) {
    for (int r = 0; r < ranks; ++r) {
      const std::uint64_t first = count * r / ranks, last = count * (r + 1) / ranks;
      for (std::uint64_t b = first; b < last; b += 1ULL << 28) {
        const int n = static_cast<int>(std::min<std::uint64_t>(last - b, 1ULL << 28));
        MPI_Bcast(values + b, n, MPI_UINT16_T, r, MPI_COMM_WORLD);
      }
    }
  };
  parallel.sum = [](std::uint64_t mine) {
    std::uint64_t all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return all;
  };
  try {
    body();
  } catch (...) {
    MPI_Abort(MPI_COMM_WORLD, 2);
    throw;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
}

}  // namespace naqala::solve

#include "solve/mpi.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "core/error.h"

namespace naqala::solve {

bool mpi_built_in() {
  return true;
}

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

namespace {

// Waits for a collective without spinning for long: a rank that finished its share of a round
// sleeps until the others have (MPI's own blocking calls poll the shared memory without a
// pause, and on a shared or oversubscribed machine that polling took two thirds of the CPU).
// The sleeps start at 20 us and double to 1 ms, after a short spin that keeps fast answers fast.
void finish(MPI_Request request) {
  int done = 0;
  for (int i = 0; i < 200 && !done; ++i) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  for (long nanoseconds = 20'000; !done; nanoseconds = std::min(2 * nanoseconds, 1'000'000L)) {
    const timespec pause{0, nanoseconds};
    nanosleep(&pause, nullptr);
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

void broadcast(void* data, int count, MPI_Datatype type, int root) {
  MPI_Request request;
  MPI_Ibcast(data, count, type, root, MPI_COMM_WORLD, &request);
  finish(request);
}

}  // namespace

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
        broadcast(values + b, n, MPI_UINT16_T, r);
      }
    }
  };
  // Each rank's lists to every rank: the lengths all-to-all, then the bytes by MPI_Ialltoallv
  // in rounds of at most 2^30 / ranks bytes a pair (MPI counts and offsets are ints).
  parallel.alltoall = [ranks](const std::vector<std::vector<std::uint8_t>>& to) {
    std::vector<std::uint64_t> sizes(ranks), from_sizes(ranks);
    std::uint64_t longest = 0;
    for (int r = 0; r < ranks; ++r) {
      sizes[r] = to[r].size();
      longest = std::max(longest, sizes[r]);
    }
    MPI_Request request;
    MPI_Ialltoall(sizes.data(), 1, MPI_UINT64_T, from_sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD,
                  &request);
    finish(request);
    std::uint64_t longest_anywhere = 0;
    MPI_Iallreduce(&longest, &longest_anywhere, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD, &request);
    finish(request);
    std::vector<std::vector<std::uint8_t>> from(ranks);
    for (int r = 0; r < ranks; ++r) from[r].resize(from_sizes[r]);
    const std::uint64_t piece = std::max<std::uint64_t>(1, (1ULL << 30) / ranks);
    std::vector<int> send_counts(ranks), send_at(ranks), receive_counts(ranks), receive_at(ranks);
    std::vector<std::uint8_t> out, in;
    for (std::uint64_t done = 0; done < longest_anywhere; done += piece) {
      int sent = 0, received = 0;
      for (int r = 0; r < ranks; ++r) {
        send_counts[r] = static_cast<int>(sizes[r] > done ? std::min(piece, sizes[r] - done) : 0);
        send_at[r] = sent;
        sent += send_counts[r];
        receive_counts[r] =
            static_cast<int>(from_sizes[r] > done ? std::min(piece, from_sizes[r] - done) : 0);
        receive_at[r] = received;
        received += receive_counts[r];
      }
      out.resize(sent);
      in.resize(received);
      for (int r = 0; r < ranks; ++r)
        std::copy_n(to[r].data() + done, send_counts[r], out.data() + send_at[r]);
      MPI_Ialltoallv(out.data(), send_counts.data(), send_at.data(), MPI_BYTE, in.data(),
                     receive_counts.data(), receive_at.data(), MPI_BYTE, MPI_COMM_WORLD, &request);
      finish(request);
      for (int r = 0; r < ranks; ++r)
        std::copy_n(in.data() + receive_at[r], receive_counts[r], from[r].data() + done);
    }
    return from;
  };
  parallel.sum = [](std::uint64_t mine) {
    std::uint64_t all = 0;
    MPI_Request request;
    MPI_Iallreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD, &request);
    finish(request);
    return all;
  };
  try {
    body();
  } catch (...) {
    MPI_Abort(MPI_COMM_WORLD, 2);
    throw;
  }
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  finish(request);
  MPI_Finalize();
}

}  // namespace naqala::solve

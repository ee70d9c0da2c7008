#pragma once
// Building a database under MPI (OpenMPI, solve/sowing_db.h's build_sliced): every rank
// computes its slice of each level and keeps only that slice once the level is done. Before a
// level it asks the owners of the lower levels' boards its slice reads for their values (one
// all-to-all of questions, one of answers); while the level is built, the boards that moved
// in each round of the worklist (or the slices after each pass) are all-gathered, so every
// rank holds that level whole; rank 0 writes the files, the database streamed to it from
// every rank's slices. Optional at build time: without MPI, run_under_mpi() says so.
#include <functional>

#include "solve/sowing_db.h"

namespace naqala::solve {

bool mpi_built_in();
// The process was started by mpirun (OpenMPI's or a PMI launcher's environment).
bool launched_by_mpirun();
// Initialises MPI, fills `parallel` for this rank, runs `body`, finalises MPI. Throws
// naqala::Error when MPI is not built in.
void run_under_mpi(SowingDb::Parallel& parallel, const std::function<void()>& body);

}  // namespace naqala::solve

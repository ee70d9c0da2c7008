#pragma once
// Building a database under MPI (OpenMPI, solve/sowing_db.h's build_sliced): every rank
// computes its slice of each level and keeps only that slice. Before a level it asks the
// owners of the lower levels' boards its slice reads for their values (one all-to-all of
// questions, one of answers) and tells the owners of the boards of the level its slice reads
// (its ghosts) that it reads them; each round of the worklist every rank sends the bounds of
// its boards that moved to the ranks that read them (an all-to-all; the passes all-gather the
// slices after each pass, holding the level whole); rank 0 writes the files, each level's and
// the database streamed to it from every rank's slices. Optional at build time: without MPI,
// run_under_mpi() says so.
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

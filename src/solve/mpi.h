#pragma once
// Building a database under MPI (OpenMPI): every rank computes its slice of each level, and
// the boards that moved in each round of the worklist (or the slices after each pass) are
// all-gathered, so every rank holds the whole database; only rank 0 writes. Optional at build
// time: without MPI, run_under_mpi() says so.
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

#!/bin/sh
# The MPI build of an endgame database (2 and 3 ranks, the worklist on each rank's slice, each
# rank keeping only its slice of the finished levels and rank 0 writing the file streamed from
# every rank's slices) is byte for byte the threaded build.
# Usage: mpi_build_test.sh NAQALA MPIEXEC WORKDIR
set -eu
naqala=$1 mpiexec=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
# OpenMPI refuses to run as root unless told (CI containers run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# OpenMPI keeps buffers to its end: not leaks of ours.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
"$naqala" solve oware --build-db 9 --threads 2 --db "$dir/threads.db"
"$mpiexec" -np 2 --oversubscribe "$naqala" solve oware --build-db 9 --threads 1 --db "$dir/mpi.db"
cmp "$dir/threads.db" "$dir/mpi.db"
# Three ranks: slices of unequal ends, each rank told the others' boards every round.
"$mpiexec" -np 3 --oversubscribe "$naqala" solve oware --build-db 9 --threads 2 --db "$dir/mpi3.db"
cmp "$dir/threads.db" "$dir/mpi3.db"
"$naqala" solve awale --build-db 7 --threads 1 --db "$dir/awale-threads.db"
"$mpiexec" -np 2 --oversubscribe "$naqala" solve awale --build-db 7 --threads 2 --db "$dir/awale-mpi.db"
cmp "$dir/awale-threads.db" "$dir/awale-mpi.db"
echo "MPI and threaded builds are identical"
rm -rf "$dir"

#pragma once
// Endgame databases and the exact solver from Python (docs/python.md): naqala.EndgameDb
// (build, load, save, query a state's exact value and best moves) and naqala.solve.
#include <pybind11/pybind11.h>

namespace naqala::python {

void add_solver(pybind11::module_& m);

}  // namespace naqala::python

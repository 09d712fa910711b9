#pragma once
// The CLI's commands, one file each: each reads its own options from argv (from argv[2] on) and
// returns the exit status, or throws Failure (cli.hpp) for bad input.

namespace prefill_trace::cli {

int run_lesson(int argc, char** argv);   // lesson.cpp
int run_quiz(int argc, char** argv);     // lesson.cpp
int run_trace(int argc, char** argv);    // trace.cpp
int run_sweep(int argc, char** argv);    // sweep.cpp
int run_serve(int argc, char** argv);    // serve.cpp
int run_presets(int argc, char** argv);  // presets.cpp

}  // namespace prefill_trace::cli

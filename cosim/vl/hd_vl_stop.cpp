// SPDX-License-Identifier: MIT
// hd_vl_stop.cpp - vl_stop() of the co-simulation's Verilator runtime (built with
// VL_USER_STOP): a failing assertion's `$error` is recorded in the instance's context
// (hd_vl_context.h) and the run goes on to the end of the cycle, where the glue reports it and
// the co-simulation fails. Every context in these libraries is an hd_vl::Context.
#include "hd_vl_context.h"


void vl_stop(const char *filename, int linenum, const char *hier)
{
    (void)hier;
    VerilatedContext *vc = Verilated::threadContextp();
    vc->gotError(true);
    hd_vl::Context *c = static_cast<hd_vl::Context *>(vc);
    if (c->file.empty()) {
        c->file = filename && filename[0] ? filename : "?";
        c->line = linenum;
    }
}

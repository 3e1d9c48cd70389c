// SPDX-License-Identifier: MIT
// registry.cpp - the RTL backends of this build (Verilator C++ API), by block name.
extern "C" {
#include "cosim_inst.h"
}
#include <cstring>

extern "C" const struct hd_cosim_rtl_ops hd_cosim_rtl_regpat_comp;
extern "C" const struct hd_cosim_rtl_ops hd_cosim_rtl_regpat_decomp;
extern "C" const struct hd_cosim_rtl_ops hd_cosim_rtl_regpat_tbcls;

extern "C" const struct hd_cosim_rtl_ops *hd_cosim_rtl_find(const char *block)
{
    static const struct hd_cosim_rtl_ops *const all[] = {
        &hd_cosim_rtl_regpat_comp, &hd_cosim_rtl_regpat_decomp, &hd_cosim_rtl_regpat_tbcls};
    for (const struct hd_cosim_rtl_ops *o : all)
        if (std::strcmp(o->block, block) == 0)
            return o;
    return nullptr;
}

extern "C" const char *hd_cosim_rtl_kind(void)
{
    return "verilator";
}

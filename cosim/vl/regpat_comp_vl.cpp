// SPDX-License-Identifier: MIT
// regpat_comp_vl.cpp - Verilator glue of regpat_comp (expanded from rtl/regpat_comp/regpat_comp_ports.def by hd_vl_glue.h).
extern "C" {
#include "cosim_inst.h"
#include "regpat_comp.h"
}
#include HD_VL_HEADER

#define HD_PORTS_DEF "regpat_comp_ports.def"
#define HD_VL_TOP HD_VL_PREFIX
#define HD_VL_IN struct hd_regpat_comp_in
#define HD_VL_OUT struct hd_regpat_comp_out
#define HD_VL_OPS hd_cosim_rtl_regpat_comp
#define HD_VL_NAME "regpat_comp"
#include "hd_vl_glue.h"

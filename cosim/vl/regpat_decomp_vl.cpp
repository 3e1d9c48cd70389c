// SPDX-License-Identifier: MIT
// regpat_decomp_vl.cpp - Verilator glue of regpat_decomp (expanded from rtl/regpat_decomp/regpat_decomp_ports.def by hd_vl_glue.h).
extern "C" {
#include "cosim_inst.h"
#include "regpat_decomp.h"
}
#include HD_VL_HEADER

#define HD_PORTS_DEF "regpat_decomp_ports.def"
#define HD_VL_TOP HD_VL_PREFIX
#define HD_VL_IN struct hd_regpat_decomp_in
#define HD_VL_OUT struct hd_regpat_decomp_out
#define HD_VL_OPS hd_cosim_rtl_regpat_decomp
#define HD_VL_NAME "regpat_decomp"
#include "hd_vl_glue.h"

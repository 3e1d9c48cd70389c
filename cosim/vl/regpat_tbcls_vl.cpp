// SPDX-License-Identifier: MIT
// regpat_tbcls_vl.cpp - Verilator glue of regpat_tbcls (expanded from rtl/regpat_tbcls/regpat_tbcls_ports.def by hd_vl_glue.h).
extern "C" {
#include "cosim_inst.h"
#include "regpat_tbcls.h"
}
#include HD_VL_HEADER

#define HD_PORTS_DEF "regpat_tbcls_ports.def"
#define HD_VL_TOP HD_VL_PREFIX
#define HD_VL_IN struct hd_regpat_tbcls_in
#define HD_VL_OUT struct hd_regpat_tbcls_out
#define HD_VL_OPS hd_cosim_rtl_regpat_tbcls
#define HD_VL_NAME "regpat_tbcls"
#include "hd_vl_glue.h"

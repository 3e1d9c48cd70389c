/* SPDX-License-Identifier: MIT
 * lin_mech.c - Lin ch.2's registry entry (lin_mech.h, model/policy/mech.h).
 */
#include "lin_mech.h"

static const struct hd_mech_alloc lin_allocs[] = {
    {HD_ALLOC_LIN_TABLES, hd_sm_alloc_lin_tables},
};
static const struct hd_mech_ppol lin_ppols[] = {
    {HD_PREEMPTPOL_INPLACE, hd_lin_inplace_create},
};

const struct hd_mech hd_mech_lin = {
    "lin",
    "Lin thesis ch.2: lightweight context switching, in-place switching (§2.2), allocation "
    "tables (§2.3.1)",
    lin_allocs, sizeof lin_allocs / sizeof lin_allocs[0],
    lin_ppols, sizeof lin_ppols / sizeof lin_ppols[0],
    NULL,
};

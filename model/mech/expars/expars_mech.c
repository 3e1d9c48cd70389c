/* SPDX-License-Identifier: MIT
 * expars_mech.c - EXPARS's registry entry (Yu et al., "Improving Thread-level Parallelism in GPUs
 * Through Expanding Register File to Scratchpad Memory", TACO 2018; model/policy/mech.h,
 * docs/expars.md).
 */
#include "mech.h"

const struct hd_mech hd_mech_expars = {
    "expars",
    "Yu et al. TACO 2018 (EXPARS): the maximum-CTA calculator (§3.3.1)",
    NULL, 0, NULL, 0, NULL,
};

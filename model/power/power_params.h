/* SPDX-License-Identifier: MIT
 * power_params.h - the energy model's prices: which component each event is charged to and how
 * many joules one event costs, derived once from the configuration's [power] section (and the
 * clocks and DRAM timing it depends on).
 *
 * Design: a price list of terms (event, component, joules per event, static or dynamic). An
 * event may feed several terms (core cycles pay every static power of the chip); every joule
 * lands in one component, so the total is the components' sum by construction. DRAM energies
 * follow the IDD method of Micron's TN-41-01 on the [dram] timings: an activate-precharge pair
 * costs (IDD0 x tRC - (IDD3N x tRAS + IDD2N x tRP)) x VDD, split evenly between the two
 * commands; a burst (IDD4R/W - IDD3N) x VDD x its data time; a refresh (IDD5 - IDD3N) x VDD x
 * tRFC; background IDD2N always and IDD3N - IDD2N while data moves; all per device.
 */
#ifndef HD_POWER_PARAMS_H
#define HD_POWER_PARAMS_H

#include "config.h"
#include "power_events.h"

#include <stdbool.h>
#include <stddef.h>

enum hd_pcomp {
#define HD_PCOMP(name, label, doc) HD_PC_##name,
#include "power_comps.def"
#undef HD_PCOMP
    HD_PC_COUNT
};
const char *hd_pcomp_name(enum hd_pcomp c);
const char *hd_pcomp_label(enum hd_pcomp c);

struct hd_power_term {
    unsigned char event, comp; /* enum hd_pevent, enum hd_pcomp */
    bool is_static;            /* leakage or constant power (charged per cycle) */
    double joules;             /* per event */
};

#define HD_POWER_MAX_TERMS 128
struct hd_power_params {
    struct hd_power_term term[HD_POWER_MAX_TERMS];
    unsigned nterms;
    double core_hz;            /* seconds of an interval = cycles / core_hz */
    double dram_act_pre_j;     /* the derived DRAM energies, for the report */
    double dram_rd_burst_j, dram_wr_burst_j, dram_ref_j, dram_bg_w;
    double blocks_leak_w;      /* leakage of the added blocks in use */
};

/* Fill p from cfg. 0, or -1 with a message in err (a term table overflow: a model bug). */
int hd_power_params_init(struct hd_power_params *p, const struct hd_config *cfg, char *err,
                         size_t errlen);

#endif

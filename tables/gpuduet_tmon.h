/* SPDX-License-Identifier: MIT
 * gpuduet_tmon.h - bit-exact, cycle-exact C reference of GPUDuet's throughput monitor and ME
 * controller (Lin thesis §2.10, §3.13, Table 3.3; RTL rtl/gpuduet_tmon/gpuduet_tmon.sv), one per SM.
 *
 * From a kernel's launch (start_i: ME = 0; the warm-up and window lengths, thesis 10,000 cycles
 * each, and the ME upper bound of §2.10 are sampled, so a model passes its configured values)
 * it waits the warm-up, then per window counts warp instructions issued, L1D and L2 data-port
 * cycles of hits (Lin Sec. 3.4.1), interconnect flits and DRAM transfers; at a window's last
 * cycle it classifies the
 * kernel by Table 3.3 (HD_TMON_UNDER / MODERATE / SATURATED), comparing each utilisation with
 * its threshold by multiplication (count * 10000 against T * P * Cap * window, P = 60 for the
 * interconnect's sustainable share, else 100), and updates ME: the first window decides
 * (underutilised: the bound; saturated: 0, GPUDuet off; moderate: 1 and a search), the search
 * adds 1 per window up to the bound until a saturated window takes the last 1 back and ends it.
 * It also reports whether L1D may hold contexts (not saturated, L1D utilisation < 3 %).
 *
 * Timing: upd_* is registered, one cycle after a window's last cycle, 0 otherwise. Interface:
 * rtl/gpuduet_tmon/gpuduet_tmon_ports.def. Use: reset once, one step per cycle while a kernel
 * runs with the cycle's counts (hd_gpuduet_tmon_ref_idle() is true only when monitoring is off).
 */
#ifndef HD_GPUDUET_TMON_H
#define HD_GPUDUET_TMON_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "gpuduet_tmon_ports.def"
#define HD_PORTS_DIR IN
struct hd_gpuduet_tmon_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_gpuduet_tmon_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(GPUDUET_TMON_CntW >= GPUDUET_TMON_InW + GPUDUET_TMON_WinW && GPUDUET_TMON_CntW <= 40 &&
                   GPUDUET_TMON_WinW <= 24 && GPUDUET_TMON_MW >= 1 && GPUDUET_TMON_MW <= 16,
               "gpuduet_tmon: counters must hold a window's counts; WinW <= 24, MW 1..16");
#endif

enum { HD_TMON_NONE = 0, HD_TMON_UNDER = 1, HD_TMON_MODERATE = 2, HD_TMON_SATURATED = 3 };
enum { HD_TMON_SCHED = 0, HD_TMON_L1 = 1, HD_TMON_ICNT = 2, HD_TMON_L2 = 3, HD_TMON_DRAM = 4, HD_TMON_NRES = 5 };
enum { HD_TMON_OFF = 0, HD_TMON_WARM = 1, HD_TMON_WIN = 2 };

extern const struct hd_block_desc hd_gpuduet_tmon_block;

struct hd_gpuduet_tmon_state {
    uint64_t cnt[HD_TMON_NRES];      /* this window's counts */
    uint32_t phase, cyc, warm, win;  /* HD_TMON_OFF / WARM / WIN; cycles into it; lengths */
    uint32_t ub, me, first, search;  /* ME bound and value; first window; searching */
    struct hd_gpuduet_tmon_out q;
    uint64_t cycle;
};

void hd_gpuduet_tmon_ref_reset(struct hd_gpuduet_tmon_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_gpuduet_tmon_ref_step(struct hd_gpuduet_tmon_state *s, const struct hd_gpuduet_tmon_in *in,
                              struct hd_gpuduet_tmon_out *out);
/* Idle (hw_inst.h): monitoring off, no start or stop, no update registered. */
bool hd_gpuduet_tmon_ref_idle(const struct hd_gpuduet_tmon_state *s,
                              const struct hd_gpuduet_tmon_in *in);
/* Resource k's per-cycle capacity, sustainable percent and thresholds (Table 3.3, percent). */
unsigned hd_gpuduet_tmon_cap(unsigned k);
unsigned hd_gpuduet_tmon_pct(unsigned k);
/* A class's name ("underutilized", ...; "?" past the last). */
const char *hd_gpuduet_tmon_class_name(unsigned cls);

#endif

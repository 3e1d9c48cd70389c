/* SPDX-License-Identifier: MIT
 * gpuduet_loop.c - [gpuduet] blocks: the check that the GPU's SMs fit GPUDuet's blocks as built
 * (gpuduet_loop.h; Lin thesis §3.7-3.9, Table 3.4; docs/blocks/gpuduet.md "In the GPU"). The
 * tables' blocks themselves are the model's in every run (gpuduet_tab.h).
 */
#include "gpuduet_loop.h"

#include "gpuduet_bitmap.h"
#include "gpuduet_tbct.h"
#include "gpuduet_wct.h"

#include <inttypes.h>
#include <stdlib.h>

#define NW GPUDUET_WCT_NW
#define NT GPUDUET_TBCT_NT

struct gd_loop {
    uint32_t nsms;
};

/* {==== Creation ==== */
struct gd_loop *gd_loop_create(const struct hd_gpu_timing_params *p,
                               const struct hd_hw_factory *const *hw, char *err, size_t errlen)
{
    const uint32_t rf = p->sm.registers / 32u, sh = (uint32_t)(p->sm.shared_bytes / 128u);
    const uint32_t l1 = GPUDUET_BITMAP_Units - GPUDUET_BITMAP_L1Lo;
    if (rf != GPUDUET_BITMAP_SmemLo || sh != GPUDUET_BITMAP_L1Lo - GPUDUET_BITMAP_SmemLo ||
        p->gduet.l1d_units > l1 || p->sm.max_warps > NW || p->sm.max_ctas > NT ||
        GPUDUET_WCT_RfUnits != GPUDUET_BITMAP_SmemLo || GPUDUET_TBCT_SmemLo != GPUDUET_BITMAP_SmemLo ||
        GPUDUET_TBCT_SmemHi != GPUDUET_BITMAP_L1Lo) {
        snprintf(err, errlen,
                 "key 'gpuduet.blocks': the GPUDuet blocks are built for a unified space of %d "
                 "register-file, %d shared-memory and at most %u L1D units of 128 B, %d warps and "
                 "%d TBs per SM (configs/rtl/gpuduet_*.ini); the GPU has [sm] registers = %u (%u "
                 "units), shared_mem_bytes = %" PRIu64 " (%u units), an L1D of %u units, "
                 "max_ctas = %u and %u warp slots",
                 GPUDUET_BITMAP_SmemLo, GPUDUET_BITMAP_L1Lo - GPUDUET_BITMAP_SmemLo, l1, NW, NT,
                 p->sm.registers, rf, (uint64_t)p->sm.shared_bytes, sh, p->gduet.l1d_units,
                 p->sm.max_ctas, p->sm.max_warps);
        return NULL;
    }
    (void)hw;
    struct gd_loop *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err, errlen, "host out of memory (gpuduet blocks)");
        return NULL;
    }
    L->nsms = p->num_sms;
    return L;
}

void gd_loop_destroy(struct gd_loop *L)
{
    free(L);
}
/* }==== */

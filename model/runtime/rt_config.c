/* SPDX-License-Identifier: MIT
 * rt_config.c - the one validation of a GPU configuration (rt_config.h): the configuration
 * layer's own cross-key rules, then those of each model that will consume it, in the order a run
 * would meet them. Before this existed, `heddle config` accepted settings (l1d.line=100,
 * pipeline.ldst_segment_bytes=33, ...) that a run rejected, and the timing model's rules were
 * reported only at the first launch. The Oracle's profile ([context] oracle_profile) is read
 * here too, so a bad one is a configuration error of `config` and `run` alike (issue 34 item 9).
 */
#include "rt_config.h"

#include "drain_profile.h"
#include "mem_params.h"
#include "timing_params.h"

#include <stdio.h>
#include <stdlib.h>

int hd_rt_config_check(const struct hd_config *c, const char *name, char *err, size_t errlen)
{
    const char *what = name ? name : "default configuration";
    char why[384] = "";
    if (hd_config_validate(c, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", what, why);
        return -1;
    }
    if (c->gpu_warp_size != 32) {
        snprintf(err, errlen, "%s: gpu.warp_size = %u: PTX semantics need 32", what,
                 c->gpu_warp_size);
        return -1;
    }
    int rc = 0;
    if (c->mem_model == HD_MEMMODEL_FULL) { /* the memory system's cross-key rules */
        struct hd_mem_params *mp = malloc(sizeof *mp);
        if (!mp || hd_mem_params_init(c, mp, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", what, mp ? why : "host out of memory");
            rc = -1;
        }
        free(mp);
    }
    if (rc == 0) { /* the timing model's (checked even for functional runs: same GPU) */
        struct hd_gpu_timing_params *tp = malloc(sizeof *tp);
        if (!tp || hd_timing_params_init(c, tp, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: %s", what, tp ? why : "host out of memory");
            rc = -1;
        }
        free(tp);
    }
    if (rc == 0 && c->context_preempt_policy == HD_PREEMPTPOL_ORACLE &&
        c->context_oracle_profile.s[0]) { /* the file it names, read as a run reads it */
        struct hd_drain_profile_owned prof;
        if (hd_drain_profile_load(c->context_oracle_profile.s, &prof, why, sizeof why) != 0) {
            snprintf(err, errlen, "%s: key 'oracle_profile': %s", what, why);
            rc = -1;
        }
        hd_drain_profile_free(&prof);
    }
    return rc;
}

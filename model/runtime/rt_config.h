/* SPDX-License-Identifier: MIT
 * rt_config.h - the one validation of a GPU configuration: everything a run would reject,
 * checked before any run (hd_gpu_create) and by `heddle config`, so that the two never disagree.
 */
#ifndef HD_RT_CONFIG_H
#define HD_RT_CONFIG_H

#include <stddef.h>

#include "config.h"

/* The cross-key checks of the configuration (hd_config_validate), of the functional model
 * (warp size), of the memory system (hd_mem_params_init: powers of two, address-map bits,
 * bank groups, ...) and of the timing model (hd_timing_params_init: segment and icache line
 * sizes). `name` ("configs/x.ini", or NULL for the defaults) starts the message. Returns 0, or
 * -1 with "name: key 'X' ...: message" in err. */
int hd_rt_config_check(const struct hd_config *cfg, const char *name, char *err, size_t errlen);

#endif

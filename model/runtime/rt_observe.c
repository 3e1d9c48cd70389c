/* SPDX-License-Identifier: MIT
 * rt_observe.c - heddle_observe.h: the GPU keeps the observer and hands it to each new launch
 * (rt_stream.c), so executors find it in hd_func_launch.observer.
 */
#include "heddle_observe.h"

#include "gpu_timing.h"
#include "rt_internal.h"

void hd_gpu_set_func_observer(struct hd_gpu *gpu, const struct hd_func_observer *obs)
{
    gpu->func_observer = obs;
}

void hd_gpu_set_hw_factory(struct hd_gpu *gpu, const struct hd_hw_factory *f)
{
    gpu->hw_factory = f;
    if (gpu->timing)
        hd_gpu_timing_set_hw_factory(gpu->timing, f);
}

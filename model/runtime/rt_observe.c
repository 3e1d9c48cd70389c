/* SPDX-License-Identifier: MIT
 * rt_observe.c - heddle_observe.h: the GPU keeps the observer and hands it to each new launch
 * (rt_stream.c), so executors find it in hd_func_launch.observer.
 */
#include "heddle_observe.h"

#include "rt_internal.h"

void hd_gpu_set_func_observer(struct hd_gpu *gpu, const struct hd_func_observer *obs)
{
    gpu->func_observer = obs;
}

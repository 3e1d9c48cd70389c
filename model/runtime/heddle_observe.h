/* SPDX-License-Identifier: MIT
 * heddle_observe.h - install a warp observer (model/func/observer.h) on a GPU: every launch
 * queued afterwards carries it, and the executor calls it at context samples and TB-wide
 * barrier points; and choose the factory of the hardware blocks in the timing loop. Additive to
 * heddle.h, for tools (`heddle cosim`) and tests, not host drivers.
 */
#ifndef HEDDLE_OBSERVE_H
#define HEDDLE_OBSERVE_H

#include "heddle.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hd_func_observer;

/* `obs` (NULL: none) must outlive every launch queued while it is installed. */
void hd_gpu_set_func_observer(struct hd_gpu *gpu, const struct hd_func_observer *obs);

/* The factory of the hardware blocks stepped in the timing loop (model/hw/hw_inst.h; NULL, the
 * default: the C references; cosim/cosim_hw.h: co-simulated with the RTL). Set before the
 * first launch; `f` must outlive the GPU. */
struct hd_hw_factory;
void hd_gpu_set_hw_factory(struct hd_gpu *gpu, const struct hd_hw_factory *f);

#ifdef __cplusplus
}
#endif
#endif

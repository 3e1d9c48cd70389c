/* SPDX-License-Identifier: MIT
 * heddle_observe.h - install a warp observer (model/func/observer.h) on a GPU: every launch
 * queued afterwards carries it, and the executor calls it at context samples and TB-wide
 * barrier points. Additive to heddle.h, for tools (`heddle cosim`) and tests, not host drivers.
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

#ifdef __cplusplus
}
#endif
#endif

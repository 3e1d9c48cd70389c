/* SPDX-License-Identifier: MIT
 * func_status.h - status codes of the functional model.
 *
 * The functional layer may not include the runtime's public header (layering is one-way), so it
 * has its own codes; they have the same numeric values as enum hd_status in heddle.h so that the
 * runtime passes them through unchanged (it checks the equality at compile time). Every function
 * of model/func returns HD_FUNC_OK (0) or one of the negative codes and writes a located message
 * into the caller's error buffer.
 */
#ifndef HD_FUNC_STATUS_H
#define HD_FUNC_STATUS_H

enum hd_func_status {
    HD_FUNC_OK = 0,
    HD_FUNC_ERR_CONFIG = -1,
    HD_FUNC_ERR_PTX = -2,
    HD_FUNC_ERR_NOT_FOUND = -3,
    HD_FUNC_ERR_ARGS = -4,
    HD_FUNC_ERR_MEMORY = -5,
    HD_FUNC_ERR_FAULT = -6,
    HD_FUNC_ERR_UNSUPPORTED = -7,
    HD_FUNC_ERR_INTERRUPTED = -8,
    HD_FUNC_ERR_INTERNAL = -9
};

#if defined(__GNUC__)
#define HD_FUNC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HD_FUNC_PRINTF(f, a)
#endif

#endif

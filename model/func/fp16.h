/* SPDX-License-Identifier: MIT
 * fp16.h - 16-bit floating-point formats (IEEE half, bfloat16) for cvt and f16 arithmetic
 * (internal to model/func).
 */
#ifndef HD_FUNC_FP16_H
#define HD_FUNC_FP16_H

#include <stdint.h>

/* The value of a 16-bit pattern (bf16 != 0: bfloat16, else IEEE half); exact. */
double hd_fp16_to_double(uint64_t bits, int bf16);
/* v rounded to the format with rounding `rnd` (enum hd_round: RN (default), RZ, RM, RP). */
uint64_t hd_fp16_from_double(double v, int bf16, uint8_t rnd);

#endif

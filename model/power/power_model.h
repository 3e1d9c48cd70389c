/* SPDX-License-Identifier: MIT
 * power_model.h - event counts to energy: every term of the price list (power_params.h) times
 * its event's count, summed per component, split into dynamic and static energy.
 *
 * Design: a pure function of (prices, events); the total is the sum of the components, the
 * components the sums of their terms, so the breakdown adds up by construction and a caller can
 * price any interval (run, kernel, SM) it has counts for.
 */
#ifndef HD_POWER_MODEL_H
#define HD_POWER_MODEL_H

#include "power_events.h"
#include "power_params.h"

struct hd_power_energy {
    double comp[HD_PC_COUNT];            /* joules per component */
    double comp_static[HD_PC_COUNT];     /* of which static (leakage, constant) */
    double dynamic_j, static_j, total_j;
    double seconds;                      /* the interval the average power is over */
};

/* e = the energy of events ev at prices p over `seconds`. */
void hd_power_energy_compute(const struct hd_power_params *p, const struct hd_power_events *ev,
                             double seconds, struct hd_power_energy *e);
/* Average power of component c (or of the total with c = HD_PC_COUNT), W; 0 for no time. */
double hd_power_watts(const struct hd_power_energy *e, unsigned c);
/* e = a - b per component (the energy of a run not in its kernels). */
void hd_power_energy_sub(const struct hd_power_energy *a, const struct hd_power_energy *b,
                         struct hd_power_energy *e);
/* e += a. */
void hd_power_energy_add(struct hd_power_energy *e, const struct hd_power_energy *a);

#endif

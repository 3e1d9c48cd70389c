/* SPDX-License-Identifier: MIT
 * clock_domain.h - a clock domain driven from the core clock by an exact fractional
 * accumulator (interconnect, L2 and DRAM clocks of [clock]).
 *
 * Design: the GPU ticks the memory system once per core cycle. Each core cycle adds the
 * domain's frequency to an accumulator; every whole core frequency in it is one domain cycle
 * (so 924 MHz DRAM under a 700 MHz core runs 1 or 2 cycles per core cycle, 924 per 700 on
 * average, with no drift: frequencies are integers in kHz). `now` is the number of domain cycles
 * run so far; a domain cycle runs with time `now` after the increment. Cycles the GPU skipped
 * (nothing could happen) are advanced in closed form. hd_clock_core_at() answers the inverse
 * question for next_event(): at which core cycle will the domain reach a given time?
 */
#ifndef HD_CLOCK_DOMAIN_H
#define HD_CLOCK_DOMAIN_H

#include <stdint.h>

struct hd_clock {
    uint64_t f, fcore; /* domain and core frequency (any common unit, reduced) */
    uint64_t acc;      /* < fcore */
    uint64_t now;      /* domain cycles run so far */
};

void hd_clock_init(struct hd_clock *c, uint64_t f_khz, uint64_t core_khz);
/* Domain cycles to run in the next core cycle (advances the accumulator; the caller runs them,
 * incrementing c->now before each). */
uint32_t hd_clock_step(struct hd_clock *c);
/* Advance over n core cycles in which nothing happens (now and acc move, nothing runs). */
void hd_clock_skip(struct hd_clock *c, uint64_t n);
/* The number k >= 1 of further core cycles after which the domain has run cycle t (1 if it
 * already has). */
uint64_t hd_clock_core_delay(const struct hd_clock *c, uint64_t t);

#endif

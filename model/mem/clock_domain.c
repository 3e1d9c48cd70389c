/* SPDX-License-Identifier: MIT
 * clock_domain.c - fractional clock crossing (see clock_domain.h).
 */
#include "clock_domain.h"

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

void hd_clock_init(struct hd_clock *c, uint64_t f_khz, uint64_t core_khz)
{
    uint64_t g = gcd(f_khz, core_khz);
    c->f = f_khz / g;
    c->fcore = core_khz / g;
    c->acc = 0;
    c->now = 0;
}

uint32_t hd_clock_step(struct hd_clock *c)
{
    c->acc += c->f;
    uint32_t n = 0;
    while (c->acc >= c->fcore) {
        c->acc -= c->fcore;
        n++;
    }
    return n;
}

void hd_clock_skip(struct hd_clock *c, uint64_t n)
{
    /* n * f / fcore without overflow: n = q * fcore + r. */
    const uint64_t q = n / c->fcore, r = n % c->fcore;
    c->now += q * c->f;
    c->acc += r * c->f;
    c->now += c->acc / c->fcore;
    c->acc %= c->fcore;
}

uint64_t hd_clock_core_delay(const struct hd_clock *c, uint64_t t)
{
    if (t <= c->now)
        return 1;
    /* smallest k with (acc + k f) / fcore >= t - now */
    const uint64_t need = t - c->now;
    const uint64_t num = need * c->fcore - c->acc; /* > 0 since acc < fcore */
    uint64_t k = (num + c->f - 1) / c->f;
    return k ? k : 1;
}

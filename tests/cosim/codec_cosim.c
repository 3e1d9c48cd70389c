/* SPDX-License-Identifier: MIT
 * codec_cosim.c - the context codec (model/ctx/ctx_codec.h) with its blocks made by the
 * co-simulation factory (cosim/cosim_hw.h): a stream of random and structured registers, one per
 * cycle, saved then restored, with regpat_comp and regpat_decomp running C reference and RTL in
 * lockstep. Checks: 0 mismatches, bit-exact round trips, and with --drive rtl the same packed
 * results at the same cycles; prints the cost per register of the C references alone and in
 * lockstep. Usage: hd_codec_cosim [REGISTERS]. Exit 0 on success.
 */
#include "cosim_hw.h"
#include "ctx_codec.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct run {
    uint64_t cycles, sum, steps;
    double secs;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void make_reg(uint64_t *rng, unsigned n, uint32_t v[32])
{
    uint32_t b = (uint32_t)(*rng >> 20), s = n % 5u;
    for (unsigned l = 0; l < 32; l++) {
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
        v[l] = n % 3u == 2u ? (uint32_t)(*rng >> 32) : b + s * (l % (8u << (n % 3u)));
    }
}

/* Stream `nregs` registers through the codec of factory f. Returns 0, or -1 with a message. */
static int stream(const struct hd_hw_factory *f, unsigned nregs, struct run *r, char *err,
                  size_t errlen)
{
    struct hd_ctx_codec *c = hd_ctx_codec_create(f, 0, err, errlen);
    if (!c)
        return -1;
    uint32_t (*regs)[32] = calloc(nregs, sizeof *regs);
    struct hd_ctx_codec_packed *pk = calloc(nregs, sizeof *pk);
    if (!regs || !pk) {
        free(regs);
        free(pk);
        hd_ctx_codec_destroy(c);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    uint64_t rng = 1;
    for (unsigned n = 0; n < nregs; n++)
        make_reg(&rng, n, regs[n]);
    unsigned saved = 0, popped = 0, restored = 0, back = 0;
    int rc = 0;
    double t0 = now_s();
    uint64_t now = 0;
    while (back < nregs && rc == 0) {
        if (saved < nregs && hd_ctx_codec_offer_save(c, regs[saved], saved % 7u != 6u,
                                                     saved % 3u, saved))
            saved++;
        if (restored < popped && hd_ctx_codec_offer_restore(c, &pk[restored], restored))
            restored++;
        if ((rc = hd_ctx_codec_tick(c, now++, err, errlen)) != 0)
            break;
        uint64_t tag;
        while (hd_ctx_codec_pop_save(c, &pk[popped], &tag))
            r->sum = r->sum * 31u + pk[popped++].words + tag;
        uint32_t lanes[32];
        while (hd_ctx_codec_pop_restore(c, lanes, &tag)) {
            bool live = tag % 7u != 6u;
            for (unsigned l = 0; l < 32 && rc == 0; l++)
                if (lanes[l] != (live ? regs[tag][l] : 0u)) {
                    snprintf(err, errlen, "register %" PRIu64 " lane %u: restored 0x%08x, saved 0x%08x",
                             tag, l, lanes[l], regs[tag][l]);
                    rc = -1;
                }
            back++;
        }
    }
    r->secs = now_s() - t0;
    r->cycles = now;
    r->steps = hd_ctx_codec_stats(c)->comp_steps + hd_ctx_codec_stats(c)->decomp_steps;
    free(regs);
    free(pk);
    hd_ctx_codec_destroy(c);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned nregs = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20000u;
    char err[2048];
    struct run ref = {0}, co = {0}, dr = {0};
    if (stream(hd_hw_ref_factory(), nregs, &ref, err, sizeof err) != 0) {
        fprintf(stderr, "codec_cosim: C references: %s\n", err);
        return 1;
    }
    for (int drive = 0; drive < 2; drive++) {
        struct hd_cosim_hw_opts o;
        memset(&o, 0, sizeof o);
        o.rtl = true;
        o.sm_all = true;
        o.drive_rtl = drive;
        struct hd_cosim_hw *h = hd_cosim_hw_create(&o, err, sizeof err);
        struct run *r = drive ? &dr : &co;
        if (!h || stream(hd_cosim_hw_factory(h), nregs, r, err, sizeof err) != 0) {
            fprintf(stderr, "codec_cosim: MISMATCH (drive %s): %s\n", drive ? "rtl" : "ref", err);
            hd_cosim_hw_destroy(h);
            return 1;
        }
        const struct hd_cosim_hw_stats *st = hd_cosim_hw_stats(h);
        printf("codec_cosim: drive %s: %u registers saved and restored, %" PRIu64 " cycles, %"
               PRIu64 " block steps (%" PRIu64 " against RTL on %u instances), %" PRIu64
               " failures, 0 mismatches\n", drive ? "rtl" : "ref", nregs, r->cycles, st->steps,
               st->rtl_steps, st->rtl_instances, st->failures);
        hd_cosim_hw_destroy(h);
    }
    if (co.cycles != ref.cycles || dr.cycles != ref.cycles || co.sum != ref.sum || dr.sum != ref.sum) {
        fprintf(stderr, "codec_cosim: MISMATCH: cycles %" PRIu64 "/%" PRIu64 "/%" PRIu64
                        " or packed results differ (ref/cosim/drive rtl)\n",
                ref.cycles, co.cycles, dr.cycles);
        return 1;
    }
    printf("codec_cosim: same cycles and packed results with --drive rtl; cost per register "
           "(save + restore): C references %.0f ns, with RTL in lockstep %.0f ns (ratio %.1f)\n",
           1e9 * ref.secs / nregs, 1e9 * co.secs / nregs, co.secs / (ref.secs > 0 ? ref.secs : 1e-9));
    return 0;
}

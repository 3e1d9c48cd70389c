/* SPDX-License-Identifier: MIT
 * zorua_phase_loop.c - the phases of each kernel image for the loop (zorua_phase_loop.h; Zorua Sec. 3.6).
 */
#include "zorua_phase_loop.h"

#include "zphase.h"

#include <stdlib.h>

static void build(struct zph *z, struct zph_kernel *k, struct hd_annot *an)
{
    char err[128];
    struct hd_zphases *ph = NULL;
    k->an = an;
    k->col = -1;
    if (!an->ra_ok || hd_zphase_build(an, &ph, err, sizeof err) != 0)
        return;
    uint32_t *regs = calloc(an->nregs ? an->nregs : 1, sizeof *regs);
    k->need = calloc(ph->n ? ph->n : 1, sizeof *k->need);
    k->group = calloc(ph->n ? ph->n : 1, sizeof *k->group);
    if (!regs || !k->need || !k->group) {
        free(regs);
        free(k->need);
        free(k->group);
        k->need = NULL;
        k->group = NULL;
        hd_zphase_free(ph);
        return;
    }
    for (uint32_t i = 0; i < ph->n; i++) {
        uint32_t top = 0;
        for (uint32_t pc = ph->ph[i].start; pc < ph->ph[i].end; pc++) {
            const unsigned n = hd_annot_live_regs(an, pc, false, true, regs, an->nregs);
            for (unsigned j = 0; j < n && j < an->nregs; j++) {
                const int32_t p = hd_annot_phys(an, regs[j]);
                const uint32_t w = hd_annot_reg_words(an, regs[j]);
                if (p >= 0 && w) {
                    const uint32_t t = ((uint32_t)p + w - 1) / z->reg_set + 1;
                    top = t > top ? t : top;
                }
            }
        }
        k->need[i] = (uint16_t)(top > 0xFFFF ? 0xFFFF : top);
        k->group[i] = (uint16_t)ph->ph[i].group;
        if (ph->ph[i].specifier) /* the phase specifier instruction: one more fetch */
            hd_annot_set_fetch_extra(an, ph->ph[i].start, 1);
    }
    /* a group (a specifier's phase and the barrier phases after it) needs its most */
    for (uint32_t i = 0; i < ph->n; i++)
        if (k->need[i] > k->need[k->group[i]])
            k->need[k->group[i]] = k->need[i];
    for (uint32_t i = 0; i < ph->n; i++)
        k->need[i] = k->need[k->group[i]];
    k->nph = ph->n;
    k->col = hd_annot_find_column(an, "zphase");
    free(regs);
    hd_zphase_free(ph);
}

void zph_launch(struct zph *z, uint32_t launch, uint32_t kernel, struct hd_annot *an)
{
    uint32_t k = 0;
    while (k < z->nk && z->k[k].kernel != kernel)
        k++;
    if (k == z->nk) {
        if (z->nk == ZPH_MAX_KERNELS)
            return; /* (more kernel images than that: the rest run without phases) */
        z->k[k] = (struct zph_kernel){kernel, NULL, -1, 0, NULL, NULL};
        z->nk++;
        build(z, &z->k[k], an);
    }
    z->l[z->nl % ZPH_MAX_LAUNCHES].launch = launch;
    z->l[z->nl % ZPH_MAX_LAUNCHES].k = k;
    z->nl++;
}

const struct zph_kernel *zph_of(const struct zph *z, uint32_t launch)
{
    const uint32_t n = z->nl < ZPH_MAX_LAUNCHES ? z->nl : ZPH_MAX_LAUNCHES;
    for (uint32_t i = 0; i < n; i++)
        if (z->l[i].launch == launch)
            return z->k[z->l[i].k].col >= 0 && z->k[z->l[i].k].need ? &z->k[z->l[i].k] : NULL;
    return NULL;
}

void zph_free(struct zph *z)
{
    for (uint32_t k = 0; k < z->nk; k++) {
        free(z->k[k].need);
        free(z->k[k].group);
    }
    z->nk = z->nl = 0;
}

/* SPDX-License-Identifier: MIT
 * exec_mem.c - memory instructions: ld/ldu/st on every state space (scalar and .v2/.v4, 8- to
 * 64-bit elements with sign/zero extension), atom and red (all operations, global and shared,
 * applied lane by lane in lane order), cvta, isspacep and prefetch.
 *
 * Design: every lane's address is resolved to a state space and checked before anything is
 * read or written: global/const addresses against the device-memory regions, shared against the
 * CTA's shared size, local against the per-thread frame size, param against the parameter
 * buffer; generic addresses are first mapped through the window layout of devmem.h. Accesses
 * must be aligned to their full size (element x vector length). The first failing lane (lowest
 * lane id) stops the instruction with a located fault before any lane writes, so a faulting
 * instruction has no partial effect. The trace gets each lane's address in its space.
 */
#include "exec_impl.h"

#include "devmem.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* {==== Address resolution ==== */
static uint8_t hd_func_generic_resolve(uint64_t addr, uint64_t *inner)
{
    if (addr - HD_ADDR_SHARED_BASE < HD_ADDR_WINDOW_BYTES) {
        *inner = addr - HD_ADDR_SHARED_BASE;
        return HD_SPACE_SHARED;
    }
    if (addr - HD_ADDR_LOCAL_BASE < HD_ADDR_WINDOW_BYTES) {
        *inner = addr - HD_ADDR_LOCAL_BASE;
        return HD_SPACE_LOCAL;
    }
    if (addr - HD_ADDR_PARAM_BASE < HD_ADDR_WINDOW_BYTES) {
        *inner = addr - HD_ADDR_PARAM_BASE;
        return HD_SPACE_PARAM;
    }
    *inner = addr;
    return HD_SPACE_GLOBAL;
}

static uint8_t as_of_space(uint8_t space)
{
    switch (space) {
    case HD_SPACE_SHARED:
        return HD_AS_SHARED;
    case HD_SPACE_LOCAL:
        return HD_AS_LOCAL;
    case HD_SPACE_PARAM:
        return HD_AS_PARAM;
    default:
        return HD_AS_GLOBAL;
    }
}

static const char *as_name(uint8_t as, uint8_t space)
{
    switch (as) {
    case HD_AS_SHARED:
        return "shared";
    case HD_AS_LOCAL:
        return space == HD_SPACE_PARAM ? "param" : "local";
    case HD_AS_PARAM:
        return "param";
    default:
        return space == HD_SPACE_CONST ? "const" : "global";
    }
}

static const char *kind_name(int store)
{
    return store == 2 ? "atomic" : store ? "store" : "load";
}

/* Host pointer for `bytes` at `addr` in address space `as` for `lane`, or NULL after a fault.
 * `store`: 0 load, 1 store, 2 atomic. `gen` is the generic address (for messages). */
static uint8_t *lane_ptr(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t lane,
                         uint8_t as, uint64_t addr, unsigned bytes, int store, uint64_t gen,
                         int *status)
{
    const char *what = kind_name(store);
    const char *sp = as_name(as, d->space);
    char gbuf[48] = "";
    const int is_gen = d->as == HD_AS_GENERIC;
#define GEN_SUFFIX() (is_gen ? (snprintf(gbuf, sizeof gbuf, " (generic 0x%" PRIx64 ")", gen), gbuf) : "")
    if (addr & (bytes - 1)) {
        *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                                "misaligned %s %s of %u bytes at 0x%" PRIx64 "%s", sp, what, bytes,
                                addr, GEN_SUFFIX());
        return NULL;
    }
    switch (as) {
    case HD_AS_GLOBAL: {
        struct hd_devmem *m = x->l->mem;
        if (!hd_devmem_valid(m, addr, bytes)) {
            *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                                    "out-of-bounds %s %s of %u bytes at 0x%" PRIx64 "%s", sp,
                                    what, bytes, addr, GEN_SUFFIX());
            return NULL;
        }
        if (store && m->regions[m->hit].kind == HD_DEVMEM_CONST_VAR) {
            *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                                    "%s to constant memory (%s) of %u bytes at 0x%" PRIx64 "%s",
                                    what, m->regions[m->hit].name ? m->regions[m->hit].name : "?",
                                    bytes, addr, GEN_SUFFIX());
            return NULL;
        }
        uint8_t *p = hd_devmem_host(m, addr);
        if (!p)
            *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_MEMORY,
                                    "host out of memory for device pages");
        return p;
    }
    case HD_AS_SHARED:
        if (addr > x->l->smem_bytes || bytes > x->l->smem_bytes - addr) {
            *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                                    "out-of-bounds shared %s of %u bytes at shared address 0x%" PRIx64
                                    "%s (the CTA has %" PRIu64 " bytes)",
                                    what, bytes, addr, GEN_SUFFIX(), x->l->smem_bytes);
            return NULL;
        }
        return x->cta->smem + addr;
    case HD_AS_LOCAL:
        if (addr > x->w->local_bytes || bytes > x->w->local_bytes - addr) {
            *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                                    "out-of-bounds %s %s of %u bytes at local address 0x%" PRIx64
                                    "%s (a thread has %" PRIu64 " bytes)",
                                    sp, what, bytes, addr, GEN_SUFFIX(), x->w->local_bytes);
            return NULL;
        }
        return x->w->local + (size_t)lane * x->w->local_bytes + addr;
    case HD_AS_PARAM:
        if (store) {
            *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                                    "%s to the kernel parameter space at 0x%" PRIx64 "%s", what,
                                    addr, GEN_SUFFIX());
            return NULL;
        }
        if (addr > x->k->param_bytes || bytes > x->k->param_bytes - addr) {
            *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                                    "out-of-bounds param %s of %u bytes at param offset 0x%" PRIx64
                                    "%s (the kernel has %" PRIu64 " bytes of parameters)",
                                    what, bytes, addr, GEN_SUFFIX(), x->k->param_bytes);
            return NULL;
        }
        return x->l->params + addr;
    default:
        *status = hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_INTERNAL, "bad address space");
        return NULL;
    }
}

/* Resolve the memory operand of every lane in mask to host pointers (checked), and record the
 * access in the trace, one lane at a time through the generic map. Returns HD_FUNC_OK or the
 * fault status of the lowest failing lane. */
static int resolve_slow(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask,
                        unsigned bytes, int store, uint8_t *ptr[32])
{
    struct hd_func_trace *tr = x->tr;
    const uint64_t *base = d->addr_reg >= 0 ? x->regs + (size_t)d->addr_reg * 32 : NULL;
    int st = HD_FUNC_OK;
    uint8_t first_space = 0xff;
    HD_FOR_LANES(mask, l) {
        uint64_t a = (base ? base[l] : 0) + (uint64_t)d->addr_off;
        if (d->addr32)
            a &= 0xffffffffu;
        uint8_t as = d->as, space = d->space;
        uint64_t gen = 0;
        if (as == HD_AS_GENERIC) {
            gen = a;
            space = hd_func_generic_resolve(a, &a);
            as = as_of_space(space);
        } else if (space == HD_SPACE_NONE) {
            space = HD_SPACE_GLOBAL;
        }
        ptr[l] = lane_ptr(x, d, l, as, a, bytes, store, gen, &st);
        if (!ptr[l])
            return st;
        tr->addr[l] = a;
        if (first_space == 0xff)
            first_space = space;
        else if (space != first_space)
            tr->flags |= HD_TR_MIXED_SPACE;
        tr->lane_space[l] = space;
    }
    tr->space = first_space == 0xff ? d->space : first_space;
    return HD_FUNC_OK;
}

/* The same for an access whose state space is known at decode time: addresses are computed and
 * checked for all lanes at once (one region check for global memory when the lanes stay inside
 * the last region used); any problem falls back to the per-lane path for a precise report. */
static int resolve_lanes(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask,
                         unsigned bytes, int store, uint8_t *ptr[32])
{
    struct hd_func_trace *tr = x->tr;
    tr->flags |= HD_TR_MEM | (store == 2 ? HD_TR_ATOMIC : store ? HD_TR_STORE : HD_TR_LOAD);
    tr->bytes = (uint8_t)bytes;
    if (d->as == HD_AS_GENERIC)
        return resolve_slow(x, d, mask, bytes, store, ptr);
    const uint64_t off = (uint64_t)d->addr_off, wrap = d->addr32 ? 0xffffffffu : ~0ull;
    uint64_t *A = tr->addr;
    if (d->addr_reg >= 0) {
        const uint64_t *base = x->regs + (size_t)d->addr_reg * 32;
        for (uint32_t l = 0; l < 32; l++)
            A[l] = (base[l] + off) & wrap;
    } else {
        for (uint32_t l = 0; l < 32; l++)
            A[l] = off & wrap;
    }
    uint64_t lo = ~0ull, hi = 0, bad = 0;
    HD_EACH_LANE(mask, l, {
        uint64_t a = A[l];
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
        bad |= a;
    });
    tr->space = d->space == HD_SPACE_NONE ? HD_SPACE_GLOBAL : d->space;
    if ((bad & (bytes - 1)) || hi + bytes < hi)
        return resolve_slow(x, d, mask, bytes, store, ptr);
    uint8_t *host;
    switch (d->as) {
    case HD_AS_GLOBAL: {
        struct hd_devmem *m = x->l->mem;
        if (!hd_devmem_valid(m, lo, hi + bytes - lo) ||
            (store && m->regions[m->hit].kind == HD_DEVMEM_CONST_VAR))
            return resolve_slow(x, d, mask, bytes, store, ptr);
        if ((lo >> HD_DEVMEM_PAGE_BITS) == (hi >> HD_DEVMEM_PAGE_BITS)) {
            /* one page (a coalesced access): one translation */
            host = hd_devmem_host(m, lo);
            if (!host)
                return resolve_slow(x, d, mask, bytes, store, ptr);
            /* integer arithmetic: inactive lanes' addresses may be anything */
            const uintptr_t hb = (uintptr_t)host - (uintptr_t)lo;
            for (uint32_t l = 0; l < 32; l++)
                ptr[l] = (uint8_t *)(hb + (uintptr_t)A[l]);
            return HD_FUNC_OK;
        }
        HD_FOR_LANES(mask, l) {
            ptr[l] = hd_devmem_host(m, A[l]);
            if (!ptr[l])
                return resolve_slow(x, d, mask, bytes, store, ptr);
        }
        return HD_FUNC_OK;
    }
    case HD_AS_SHARED:
        if (hi + bytes > x->l->smem_bytes)
            return resolve_slow(x, d, mask, bytes, store, ptr);
        host = x->cta->smem;
        for (uint32_t l = 0; l < 32; l++)
            ptr[l] = (uint8_t *)((uintptr_t)host + (uintptr_t)A[l]);
        return HD_FUNC_OK;
    case HD_AS_LOCAL:
        if (hi + bytes > x->w->local_bytes)
            return resolve_slow(x, d, mask, bytes, store, ptr);
        host = x->w->local;
        for (uint32_t l = 0; l < 32; l++)
            ptr[l] = (uint8_t *)((uintptr_t)host + (uintptr_t)l * x->w->local_bytes +
                                 (uintptr_t)A[l]);
        return HD_FUNC_OK;
    default: /* kernel parameters */
        if (store || hi + bytes > x->k->param_bytes)
            return resolve_slow(x, d, mask, bytes, store, ptr);
        host = x->l->params;
        for (uint32_t l = 0; l < 32; l++)
            ptr[l] = (uint8_t *)((uintptr_t)host + (uintptr_t)A[l]);
        return HD_FUNC_OK;
    }
}

int hd_func_mem_access(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t lane,
                       uint8_t as, uint64_t addr, void *buf, unsigned bytes, int store)
{
    int st = HD_FUNC_OK;
    /* frames are byte arrays; check the whole range, alignment is the callee's business */
    if (as != HD_AS_LOCAL)
        return hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_INTERNAL, "frame copy outside local memory");
    if (addr > x->w->local_bytes || bytes > x->w->local_bytes - addr)
        return hd_func_fault(x, d, (int)lane, HD_FUNC_ERR_FAULT,
                             "call frame access of %u bytes at local address 0x%" PRIx64
                             " outside the thread's %" PRIu64 " bytes",
                             bytes, addr, x->w->local_bytes);
    uint8_t *p = x->w->local + (size_t)lane * x->w->local_bytes + addr;
    if (store)
        memcpy(p, buf, bytes);
    else
        memcpy(buf, p, bytes);
    return st;
}
/* }==== */

/* {==== ld / st ==== */
static uint64_t load_elem(const uint8_t *p, unsigned bytes)
{
    switch (bytes) {
    case 1:
        return p[0];
    case 2: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    }
}

static void store_elem(uint8_t *p, uint64_t v, unsigned bytes)
{
    switch (bytes) {
    case 1:
        p[0] = (uint8_t)v;
        break;
    case 2: {
        uint16_t t = (uint16_t)v;
        memcpy(p, &t, 2);
        break;
    }
    case 4: {
        uint32_t t = (uint32_t)v;
        memcpy(p, &t, 4);
        break;
    }
    default:
        memcpy(p, &v, 8);
        break;
    }
}

static int x_ld(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    uint8_t *ptr[32];
    const unsigned eb = d->elem_bytes, n = d->vec;
    int st = resolve_lanes(x, d, mask, eb * n, 0, ptr);
    if (st != HD_FUNC_OK)
        return st;
    const int sgn = d->sgn && eb < 8;
    for (unsigned i = 0; i < n; i++) {
        uint64_t *D = hd_dst(x, d, (int)i);
        if (eb == 4 && !sgn) {
            HD_EACH_LANE(mask, l, {
                uint32_t v;
                memcpy(&v, ptr[l] + i * 4, 4);
                D[l] = v;
            });
            continue;
        }
        if (eb == 8) {
            HD_EACH_LANE(mask, l, {
                uint64_t v;
                memcpy(&v, ptr[l] + i * 8, 8);
                D[l] = v;
            });
            continue;
        }
        HD_FOR_LANES(mask, l) {
            uint64_t v = load_elem(ptr[l] + i * eb, eb);
            if (sgn)
                v = (uint64_t)hd_sext(v, eb * 8);
            D[l] = v & d->wmask;
        }
    }
    return HD_FUNC_OK;
}

static int x_st(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    uint8_t *ptr[32];
    const unsigned eb = d->elem_bytes, n = d->vec;
    int st = resolve_lanes(x, d, mask, eb * n, 1, ptr);
    if (st != HD_FUNC_OK)
        return st;
    for (unsigned i = 0; i < n; i++) {
        const uint64_t *V = hd_src(x, d, (int)i).p;
        if (eb == 4) { /* lanes in order: the highest lane wins a same-address race */
            HD_EACH_LANE(mask, l, {
                uint32_t v = (uint32_t)V[l];
                memcpy(ptr[l] + i * 4, &v, 4);
            });
        } else {
            HD_FOR_LANES(mask, l)
                store_elem(ptr[l] + i * eb, V[l], eb);
        }
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== atom / red ==== */
static float ftz_f(float f)
{
    return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

/* New value of an atomic on `old` with operands b, c; width `bits`. */
static uint64_t atom_apply(const struct hd_func_instr *d, uint64_t old, uint64_t b, uint64_t c)
{
    const unsigned bits = d->bits;
    const uint64_t m = hd_wmask(bits);
    const uint8_t t = d->type;
    switch (d->ir->atom) {
    case HD_ATOM_ADD:
        if (t == HD_T_F32) {
            float r = ftz_f(ftz_f(hd_f32(old)) + ftz_f(hd_f32(b)));
            return r != r ? 0x7fffffffu : hd_f32_bits(r);
        }
        if (t == HD_T_F64) {
            double r = hd_f64(old) + hd_f64(b);
            return r != r ? 0x7fffffffffffffffull : hd_f64_bits(r);
        }
        return (old + b) & m;
    case HD_ATOM_MIN:
        if (t == HD_T_F32)
            return hd_f32(b) < hd_f32(old) ? b : old;
        if (hd_type_is_signed((enum hd_type)t))
            return hd_sext(b, bits) < hd_sext(old, bits) ? b & m : old;
        return (b & m) < old ? b & m : old;
    case HD_ATOM_MAX:
        if (t == HD_T_F32)
            return hd_f32(b) > hd_f32(old) ? b : old;
        if (hd_type_is_signed((enum hd_type)t))
            return hd_sext(b, bits) > hd_sext(old, bits) ? b & m : old;
        return (b & m) > old ? b & m : old;
    case HD_ATOM_INC:
        return old >= (b & m) ? 0 : old + 1;
    case HD_ATOM_DEC:
        return (old == 0 || old > (b & m)) ? b & m : old - 1;
    case HD_ATOM_CAS:
        return old == (b & m) ? c & m : old;
    case HD_ATOM_EXCH:
        return b & m;
    case HD_ATOM_AND:
        return old & b;
    case HD_ATOM_OR:
        return (old | b) & m;
    case HD_ATOM_XOR:
        return (old ^ b) & m;
    default:
        return old;
    }
}

static int x_atom(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    uint8_t *ptr[32];
    const unsigned eb = d->elem_bytes;
    const int is_red = d->op == HD_OP_RED;
    int st = resolve_lanes(x, d, mask, eb, 2, ptr);
    if (st != HD_FUNC_OK)
        return st;
    /* atom: d, [a], b{, c}; red: [a], b */
    struct hd_lanes B = hd_src(x, d, 0);
    struct hd_lanes C = d->nsrc > 1 ? hd_src(x, d, 1) : B;
    uint64_t *D = is_red ? x->sink : hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint64_t old = load_elem(ptr[l], eb);
        uint64_t nv = atom_apply(d, old, HD_V(B, l), HD_V(C, l));
        store_elem(ptr[l], nv, eb);
        D[l] = old & d->wmask;
    }
    return HD_FUNC_OK;
}
/* }==== */

/* {==== cvta, isspacep, prefetch ==== */
static uint64_t window_of(uint8_t space)
{
    switch (space) {
    case HD_SPACE_SHARED:
        return HD_ADDR_SHARED_BASE;
    case HD_SPACE_LOCAL:
        return HD_ADDR_LOCAL_BASE;
    case HD_SPACE_PARAM:
        return HD_ADDR_PARAM_BASE;
    default:
        return 0; /* global and const: generic == global */
    }
}

static int x_cvta(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0);
    uint64_t *D = hd_dst(x, d, 0);
    const uint64_t base = window_of(d->space);
    const int to = d->ir->mode == HD_MODE_TO;
    HD_FOR_LANES(mask, l) {
        uint64_t a = HD_V(A, l);
        D[l] = (to ? a - base : a + base) & d->wmask;
    }
    return HD_FUNC_OK;
}

static int x_isspacep(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    struct hd_lanes A = hd_src(x, d, 0);
    uint64_t *D = hd_dst(x, d, 0);
    HD_FOR_LANES(mask, l) {
        uint64_t inner, a = HD_V(A, l);
        uint8_t sp = hd_func_generic_resolve(a, &inner);
        int r;
        if (d->space == HD_SPACE_CONST) {
            const struct hd_devmem_region *g = hd_devmem_lookup(x->l->mem, a, 1);
            r = g && g->kind == HD_DEVMEM_CONST_VAR;
        } else if (d->space == HD_SPACE_GLOBAL) {
            r = sp == HD_SPACE_GLOBAL && hd_devmem_lookup(x->l->mem, a, 1) != NULL;
        } else {
            r = sp == d->space;
        }
        D[l] = (uint64_t)r;
    }
    return HD_FUNC_OK;
}

static int x_nop(struct hd_func_exec *x, const struct hd_func_instr *d, uint32_t mask)
{
    (void)x;
    (void)d;
    (void)mask;
    return HD_FUNC_OK;
}

hd_func_exec_fn hd_func_sel_LD(const struct hd_instr *in)
{
    return in->type == HD_T_B128 ? NULL : x_ld;
}
hd_func_exec_fn hd_func_sel_LDU(const struct hd_instr *in)
{
    return hd_func_sel_LD(in);
}
hd_func_exec_fn hd_func_sel_ST(const struct hd_instr *in)
{
    return in->type == HD_T_B128 ? NULL : x_st;
}
hd_func_exec_fn hd_func_sel_ATOM(const struct hd_instr *in)
{
    if (in->type == HD_T_B128 || in->vec > 1 || in->type == HD_T_F16 || in->type == HD_T_BF16 ||
        in->type == HD_T_F16X2 || in->type == HD_T_BF16X2)
        return NULL;
    return x_atom;
}
hd_func_exec_fn hd_func_sel_RED(const struct hd_instr *in)
{
    return hd_func_sel_ATOM(in);
}
hd_func_exec_fn hd_func_sel_PREFETCH(const struct hd_instr *in)
{
    (void)in;
    return x_nop;
}
hd_func_exec_fn hd_func_sel_CVTA(const struct hd_instr *in)
{
    (void)in;
    return x_cvta;
}
hd_func_exec_fn hd_func_sel_ISSPACEP(const struct hd_instr *in)
{
    (void)in;
    return x_isspacep;
}
hd_func_exec_fn hd_func_sel_MEMBAR(const struct hd_instr *in)
{
    (void)in;
    return x_nop;
}
hd_func_exec_fn hd_func_sel_FENCE(const struct hd_instr *in)
{
    (void)in;
    return x_nop;
}
hd_func_exec_fn hd_func_sel_NANOSLEEP(const struct hd_instr *in)
{
    (void)in;
    return x_nop;
}
hd_func_exec_fn hd_func_sel_PMEVENT(const struct hd_instr *in)
{
    (void)in;
    return x_nop;
}
/* }==== */

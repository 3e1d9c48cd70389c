/* SPDX-License-Identifier: MIT
 * module.h - a PTX module loaded for execution: its variables placed in device memory and one
 * executable image per kernel.
 *
 * Design: loading allocates and initializes every module-scope .global/.const variable in device
 * memory (regions of their own kind, so hd_free cannot release them and stray pointers fault;
 * addresses in initializers, `= generic(v)+8`, are written once every variable is placed),
 * lays out module-scope .shared variables, and builds a kernel image for each .entry. A kernel
 * image is the entry plus every .func reachable through `call`, flattened: one instruction array
 * with kernel-wide PCs, one register file numbering (each function owns a range), and one
 * per-thread local-memory layout (each function owns a frame holding its .local variables and its
 * .param parameters/returns/call arguments). Frames are static, so recursion is not supported;
 * a kernel that recurses (or calls a function without a body) keeps a message in `unsupported`
 * and refuses to launch, while the other kernels of the module run. The image is immutable after
 * loading and shared by every launch, CTA and warp (and by the timing model).
 */
#ifndef HD_FUNC_MODULE_H
#define HD_FUNC_MODULE_H

#include "devmem.h"
#include "func_instr.h"
#include "ptx_ir.h"

#include <stddef.h>
#include <stdint.h>

/* One PTX function placed in a kernel image. */
struct hd_func_kfunc {
    const struct hd_func *ir;
    uint32_t index;       /* in the module's function list */
    uint32_t pc_base;     /* its first instruction in the kernel's flat code */
    uint32_t reg_base;    /* its first register in the warp's flat register file */
    uint64_t frame_base;  /* start of its frame in each thread's local memory */
    uint64_t *param_off;  /* [ir->nparams] .func parameter offsets in local memory */
    uint64_t *ret_off;    /* [ir->nrets] .func return-parameter offsets in local memory */
    uint64_t *local_off;  /* [ir->nlocals] offset of each body variable in its space */
};

struct hd_func_kernel {
    const struct hd_func_module *mod;
    const struct hd_func *entry;
    uint32_t entry_index;          /* in the module's function list */
    struct hd_func_instr *code;    /* [ncode], kernel-wide PCs */
    uint32_t ncode;
    struct hd_func_kfunc *funcs;   /* [nfuncs]; funcs[0] is the entry */
    uint32_t nfuncs;
    uint32_t nregs;                /* PTX registers of all its functions */
    uint64_t local_bytes;          /* per thread */
    uint64_t shared_static_bytes;  /* per CTA, without dynamic shared memory */
    uint64_t dyn_shared_base;      /* where extern .shared arrays start */
    uint64_t param_bytes;          /* size of the kernel parameter buffer */
    struct hd_func_call *calls;    /* [ncalls] resolved call sites (referenced by code[]) */
    uint32_t ncalls;
    char unsupported[256];         /* non-empty: why this kernel cannot run */
};

struct hd_func_module {
    const struct hd_module *ir;
    struct hd_devmem *mem;
    uint64_t *var_addr;            /* [ir->nglobals] device address (.global/.const) or shared
                                      offset (.shared); HD_FUNC_VAR_DYNAMIC for extern .shared */
    uint64_t module_shared_bytes;  /* module-scope .shared and .func-body .shared variables */
    uint64_t *func_shared_base;    /* [ir->nfuncs] shared offset of each .func's body variables */
    uint64_t const_bytes;          /* bytes of .const variables */
    struct hd_func_kernel *kernels;
    uint32_t nkernels;
};

#define HD_FUNC_VAR_DYNAMIC UINT64_MAX

/* Load `ir` (which must outlive the result) into device memory `mem`. `const_capacity` bounds
 * the total size of .const variables. Returns 0, or an HD_FUNC_ERR_* code with a message (PTX
 * file:line when it concerns a declaration). */
int hd_func_module_load(struct hd_devmem *mem, const struct hd_module *ir, uint64_t const_capacity,
                        struct hd_func_module **out, char *err, size_t errlen);
/* Free the image and release the module's variables from device memory. */
void hd_func_module_unload(struct hd_func_module *m);

/* Local memory per thread of kernel `entry` of module ir (a function index): the frames of the
 * entry and every function it calls, laid out as its kernel image lays them out (the image's
 * local_bytes, without building it). Occupancy counts it (`heddle ptx-info`, `heddle list` and
 * the timing model's CTA scheduler: one figure). */
uint64_t hd_func_local_bytes(const struct hd_module *ir, uint32_t entry);

/* The kernel image of the .entry called `name`, or NULL. */
const struct hd_func_kernel *hd_func_module_kernel(const struct hd_func_module *m,
                                                   const char *name);
/* Device address and size of module-scope .global/.const variable `name`. Returns 0 or
 * HD_FUNC_ERR_NOT_FOUND. */
int hd_func_module_symbol(const struct hd_func_module *m, const char *name, uint64_t *addr,
                          uint64_t *bytes);

/* The function (in the kernel image) that kernel-wide `pc` belongs to. */
const struct hd_func_kfunc *hd_func_kernel_func_at(const struct hd_func_kernel *k, uint32_t pc);

/* {==== Internal to model/func: instruction decoding (decode.c) ==== */
/* Decode instruction `i` of kernel function `kf` into k->code[pc_base + i]. `reconv` is the
 * function's hd_cfg reconvergence array; `kf_of_func` maps module function index -> kfunc index
 * (-1 when not in this kernel); `call` receives the call site of a CALL. Returns 0 or an error
 * with a located message. */
int hd_func_decode(const struct hd_func_module *m, struct hd_func_kernel *k, uint32_t kf,
                   uint32_t i, const int32_t *reconv, const int32_t *kf_of_func,
                   struct hd_func_call *call, char *err, size_t errlen);
/* }==== */

#endif

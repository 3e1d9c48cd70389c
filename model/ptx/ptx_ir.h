/* SPDX-License-Identifier: MIT
 * ptx_ir.h - the in-memory form of a parsed PTX module (the front end's output).
 *
 * A module owns its globals and functions. A function owns its parameters, its registers (every
 * PTX register, including each member of a `%r<N>` range, gets a dense index), its local
 * variables (.shared/.local declared inside the body) and a flat array of instructions; labels are
 * resolved to instruction indices. Every instruction keeps its source line and column so that any
 * later error (functional fault, out-of-bounds access, timing deadlock) can name the PTX line.
 *
 * Invariants: the IR is immutable after hd_ptx_parse() returns; later layers attach per-PC data
 * (CFG, reconvergence points, liveness, hints) in their own arrays indexed by instruction index,
 * never by mutating the IR. Memory is owned by the module and released by hd_ptx_module_free().
 */
#ifndef HD_PTX_IR_H
#define HD_PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* {==== Opcodes ==== */
enum hd_op {
#define HD_OP(id, name, cls) HD_OP_##id,
#include "ptx_ops.def"
#undef HD_OP
    HD_OP_COUNT
};

/* Base functional-unit class of an opcode; the timing model refines it by type (f32 -> FP,
 * f64 -> DP) for the arithmetic opcodes that are listed as INT. */
enum hd_op_class { HD_CLASS_INT, HD_CLASS_FP, HD_CLASS_DP, HD_CLASS_SFU, HD_CLASS_MEM,
                   HD_CLASS_CTRL, HD_CLASS_SYNC, HD_CLASS_MISC };
/* }==== */

/* {==== Types and modifiers ==== */
enum hd_type {
    HD_T_NONE = 0,
    HD_T_B8, HD_T_B16, HD_T_B32, HD_T_B64, HD_T_B128,
    HD_T_U8, HD_T_U16, HD_T_U32, HD_T_U64,
    HD_T_S8, HD_T_S16, HD_T_S32, HD_T_S64,
    HD_T_F16, HD_T_F16X2, HD_T_BF16, HD_T_BF16X2, HD_T_F32, HD_T_F64,
    HD_T_PRED,
    HD_T_COUNT
};

enum hd_space {
    HD_SPACE_NONE = 0, /* generic addressing (no state space written) */
    HD_SPACE_GLOBAL, HD_SPACE_SHARED, HD_SPACE_LOCAL, HD_SPACE_PARAM, HD_SPACE_CONST,
    HD_SPACE_REG, HD_SPACE_TEX,
    HD_SPACE_COUNT
};

/* Comparison for setp/set/slct (signed vs unsigned chosen by the instruction type). */
enum hd_cmp {
    HD_CMP_NONE = 0,
    HD_CMP_EQ, HD_CMP_NE, HD_CMP_LT, HD_CMP_LE, HD_CMP_GT, HD_CMP_GE,
    HD_CMP_LO, HD_CMP_LS, HD_CMP_HI, HD_CMP_HS,
    HD_CMP_EQU, HD_CMP_NEU, HD_CMP_LTU, HD_CMP_LEU, HD_CMP_GTU, HD_CMP_GEU,
    HD_CMP_NUM, HD_CMP_NAN
};

enum hd_boolop { HD_BOOL_NONE = 0, HD_BOOL_AND, HD_BOOL_OR, HD_BOOL_XOR };

/* Rounding: floating (rn rz rm rp) and round-to-integer (rni rzi rmi rpi). */
enum hd_round {
    HD_RND_NONE = 0, HD_RND_RN, HD_RND_RZ, HD_RND_RM, HD_RND_RP,
    HD_RND_RNI, HD_RND_RZI, HD_RND_RMI, HD_RND_RPI, HD_RND_RNA
};

/* Width mode of integer mul/mad: .lo .hi .wide; also used by cvta (.to) and shf (.l/.r). */
enum hd_mode {
    HD_MODE_NONE = 0, HD_MODE_LO, HD_MODE_HI, HD_MODE_WIDE,
    HD_MODE_TO,                         /* cvta.to.<space> */
    HD_MODE_SHF_L, HD_MODE_SHF_R,        /* shf direction; clamp/wrap in HD_F_CLAMP */
    HD_MODE_SHFL_UP, HD_MODE_SHFL_DOWN, HD_MODE_SHFL_BFLY, HD_MODE_SHFL_IDX,
    HD_MODE_VOTE_ALL, HD_MODE_VOTE_ANY, HD_MODE_VOTE_UNI, HD_MODE_VOTE_BALLOT,
    HD_MODE_PRMT_F4E, HD_MODE_PRMT_B4E, HD_MODE_PRMT_RC8, HD_MODE_PRMT_ECL, HD_MODE_PRMT_ECR,
    HD_MODE_PRMT_RC16,
    HD_MODE_BAR_SYNC, HD_MODE_BAR_ARRIVE, HD_MODE_BAR_RED_POPC, HD_MODE_BAR_RED_AND,
    HD_MODE_BAR_RED_OR, HD_MODE_BAR_WARP_SYNC,
    /* added by the front end (additive): testp property, match.any/.all */
    HD_MODE_TESTP_FINITE, HD_MODE_TESTP_INFINITE, HD_MODE_TESTP_NUMBER, HD_MODE_TESTP_NOTANUMBER,
    HD_MODE_TESTP_NORMAL, HD_MODE_TESTP_SUBNORMAL,
    HD_MODE_MATCH_ANY, HD_MODE_MATCH_ALL,
    /* membar / fence level (added): .cta; .gl or .gpu; .sys */
    HD_MODE_SCOPE_CTA, HD_MODE_SCOPE_GPU, HD_MODE_SCOPE_SYS
};

/* Cache operator of ld/st (added by the front end; the memory system may honour it). */
enum hd_cache_op {
    HD_CACHE_DEFAULT = 0,
    HD_CACHE_CA, HD_CACHE_CG, HD_CACHE_CS, HD_CACHE_LU, HD_CACHE_CV, /* loads */
    HD_CACHE_WB, HD_CACHE_WT                                         /* stores */
};

enum hd_atom_op {
    HD_ATOM_NONE = 0, HD_ATOM_ADD, HD_ATOM_MIN, HD_ATOM_MAX, HD_ATOM_INC, HD_ATOM_DEC,
    HD_ATOM_CAS, HD_ATOM_EXCH, HD_ATOM_AND, HD_ATOM_OR, HD_ATOM_XOR
};

/* Boolean flags of an instruction (bit set in hd_instr.flags). */
enum hd_instr_flag {
    HD_F_FTZ = 1u << 0,
    HD_F_SAT = 1u << 1,
    HD_F_APPROX = 1u << 2,
    HD_F_FULL = 1u << 3,
    HD_F_UNI = 1u << 4,       /* bra.uni */
    HD_F_VOLATILE = 1u << 5,
    HD_F_CC = 1u << 6,        /* .cc: writes the carry flag */
    HD_F_CLAMP = 1u << 7,     /* shf.clamp (wrap otherwise) */
    HD_F_SHIFTAMT = 1u << 8,  /* bfind.shiftamt */
    HD_F_ALIGNED = 1u << 9,   /* bar/barrier .aligned */
    HD_F_SYNC = 1u << 10,     /* shfl.sync / vote.sync / match.sync */
    HD_F_PRED_OUT = 1u << 11, /* shfl with |%p second destination */
    HD_F_NOFTZ = 1u << 12,
    HD_F_RELAXED = 1u << 13,  /* memory-order qualifiers other than the default */
    HD_F_NC = 1u << 14        /* ld.global.nc: read-only (non-coherent) path (added) */
};
/* }==== */

/* {==== Operands ==== */
enum hd_special_reg {
    HD_SREG_NONE = 0,
    HD_SREG_TID, HD_SREG_NTID, HD_SREG_CTAID, HD_SREG_NCTAID, /* with .x/.y/.z in `dim` */
    HD_SREG_LANEID, HD_SREG_WARPID, HD_SREG_NWARPID, HD_SREG_SMID, HD_SREG_NSMID,
    HD_SREG_GRIDID, HD_SREG_CLOCK, HD_SREG_CLOCK64, HD_SREG_GLOBALTIMER,
    HD_SREG_LANEMASK_EQ, HD_SREG_LANEMASK_LT, HD_SREG_LANEMASK_LE, HD_SREG_LANEMASK_GT,
    HD_SREG_LANEMASK_GE, HD_SREG_DYNAMIC_SMEM_SIZE, HD_SREG_TOTAL_SMEM_SIZE,
    HD_SREG_COUNT
};

enum hd_operand_kind {
    HD_OPND_NONE = 0,
    HD_OPND_REG,     /* reg: register index; neg: `!%p` (predicate operands only) */
    HD_OPND_IMM_INT, /* imm: the integer literal, sign-extended */
    HD_OPND_IMM_F32, /* imm: IEEE single bits (0fXXXXXXXX) */
    HD_OPND_IMM_F64, /* imm: IEEE double bits (0dXXXXXXXXXXXXXXXX or a decimal literal) */
    HD_OPND_SPECIAL, /* sreg + dim (0,1,2 for .x .y .z) */
    HD_OPND_ADDR,    /* [base + imm]: base is reg (reg >= 0) or symbol (symbol >= 0) or neither */
    HD_OPND_VEC,     /* {a, b, c, d}: vec[] register indices (-1 for the sink `_` or a
                        constant, see vec_imm) */
    HD_OPND_SYMBOL,  /* a variable's address used as a value (mov.u64 %rd, sym) or a param name */
    HD_OPND_LABEL,   /* branch target: imm = instruction index */
    HD_OPND_FUNC,    /* call target: symbol = function index in the module */
    HD_OPND_SINK     /* `_` */
};

/* A symbol reference names a module-level variable (m->globals), a function-local one (f->locals),
 * one of the function's parameters (f->params) or one of a .func's return parameters (f->rets). */
enum hd_symbol_scope { HD_SCOPE_MODULE = 0, HD_SCOPE_FUNC_LOCAL, HD_SCOPE_PARAM, HD_SCOPE_RET };

struct hd_operand {
    uint8_t kind;   /* enum hd_operand_kind */
    uint8_t neg;    /* `!` before a predicate operand */
    uint8_t dim;    /* special-register component */
    uint8_t vec_n;  /* number of elements of a HD_OPND_VEC */
    uint8_t sreg;   /* enum hd_special_reg */
    uint8_t scope;  /* enum hd_symbol_scope of `symbol` */
    int32_t reg;    /* register index, or -1 */
    int32_t symbol; /* variable index (in the module or function, by scope), or -1 */
    int64_t imm;    /* literal, address offset, or label's instruction index */
    int32_t vec[4];
    /* (added) Bit e set: element e of a source vector of a packing mov is a constant (`{0, %rs1}`
     * in cuda_bf16.h); vec[e] is -1 and its bits sit in `imm` at the element's position
     * (element e occupies bits [e * w, (e + 1) * w) for elements of w bits). */
    uint8_t vec_imm;
};
/* }==== */

/* {==== Instructions ==== */
#define HD_MAX_OPERANDS 6

/* What the front end guarantees about an instruction (added documentation):
 * - Types: `type` is the instruction type. Two-type opcodes put the second in `type2`:
 *   cvt.dtype.stype (type = destination, type2 = source); set.cmp.dtype.stype (type = the compare
 *   type, type2 = the destination type); slct.dtype.ctype (type2 = the selector's type);
 *   dp4a/dp2a.atype.btype. setp's compare type is `type`.
 * - Operands are in written order, destinations first. A `d|p` pair (setp, shfl, match.all) is
 *   two operands and sets HD_F_PRED_OUT; setp/set with .and/.or/.xor take the extra predicate
 *   last; bar.red is d, a, [b,] c; a call has one HD_OPND_FUNC operand (see hd_call_site).
 * - Immediates: `imm` holds raw bits. In an .f32 operand slot every literal is HD_OPND_IMM_F32
 *   (single-precision bits), in an .f64 slot HD_OPND_IMM_F64 (double bits); in integer and bit
 *   slots an integer literal is HD_OPND_IMM_INT (sign-extended to 64 bits) and a 0f/0d literal
 *   keeps its kind and raw bits.
 * - `_` (HD_OPND_SINK, or -1 inside a vector) may be any destination: the result is dropped.
 * - ld/st/cvt registers may be wider than an integer instruction type (narrow values extend).
 * - bar.* sets HD_F_ALIGNED (bar is barrier.aligned); bar.warp.sync is HD_MODE_BAR_WARP_SYNC.
 * - A label operand's `imm` is always < ninstrs of its function.
 * - Accepted but not kept: eviction hints (.L1::..., .L2::...), the order/scope qualifiers of
 *   ld/st/atom/red (any non-default order sets HD_F_RELAXED), the prefetch level, .noreturn,
 *   .maxnctapersm, .pragma, .loc/.file/.section.
 */

struct hd_instr {
    uint16_t op;      /* enum hd_op */
    uint8_t type;     /* enum hd_type: the instruction's (destination) type */
    uint8_t type2;    /* second type: cvt source, setp/set/slct compare type, ... */
    uint8_t space;    /* enum hd_space for ld/st/atom/red/cvta/isspacep */
    uint8_t cmp;      /* enum hd_cmp */
    uint8_t boolop;   /* enum hd_boolop */
    uint8_t rnd;      /* enum hd_round */
    uint8_t mode;     /* enum hd_mode */
    uint8_t atom;     /* enum hd_atom_op */
    uint8_t vec;      /* 1, 2 or 4: .v2 / .v4 of ld/st */
    uint8_t nopnds;
    uint32_t flags;   /* enum hd_instr_flag bits */
    int32_t guard;    /* guard predicate register, or -1 */
    uint8_t guard_neg;
    uint8_t cache;    /* enum hd_cache_op of ld/st (added by the front end) */
    uint32_t line, col; /* position of the opcode in the source */
    struct hd_operand opnd[HD_MAX_OPERANDS]; /* destination(s) first, as written */
};
/* }==== */

/* {==== Variables, registers, functions, modules ==== */
/* An address stored by an initializer (added by the front end): `= generic(sym)`, `= sym + 8`.
 * The loader writes the address of module variable `symbol` (m->globals) plus `addend` into the
 * `size` bytes at init[offset] (which hold zero). `generic` asks for the generic address; without
 * it, the address within the variable's own state space. */
struct hd_init_reloc {
    uint64_t offset;
    int64_t addend;
    int32_t symbol;
    uint8_t size;     /* 4 or 8 */
    bool generic;
};

struct hd_var {
    char *name;
    uint8_t space;    /* enum hd_space */
    uint8_t type;     /* element type */
    uint32_t align;   /* bytes */
    uint64_t size;    /* bytes; 0 for `.extern .shared` arrays of unknown size */
    uint64_t offset;  /* a function's parameter: its byte offset in the parameter buffer */
    bool is_extern;
    bool is_visible;
    uint8_t *init;    /* `size` bytes of initial value, or NULL (zero) */
    uint32_t line;
    struct hd_init_reloc *relocs; /* addresses to patch into init (added), or NULL */
    uint32_t nrelocs;
};

struct hd_reg {
    char *name;       /* e.g. "%r12" */
    uint8_t type;     /* declared type (enum hd_type) */
};

/* The parameter lists of one `call` instruction (a call may pass more values than fit in
 * hd_instr.opnd). A CALL instruction has one operand, HD_OPND_FUNC, whose `symbol` is the callee's
 * index in m->funcs and whose `imm` is the index of its hd_call_site in f->calls. The operands are
 * normally HD_OPND_SYMBOL naming .param variables declared in the caller's body (scope
 * HD_SCOPE_FUNC_LOCAL), in the order written. */
struct hd_call_site {
    struct hd_operand *rets;
    uint32_t nrets;
    struct hd_operand *args;
    uint32_t nargs;
};

/* A label as written in the body: its name and the index of the instruction it marks. */
struct hd_label {
    char *name;
    uint32_t instr;
};

struct hd_func {
    char *name;
    bool is_entry;     /* .entry (kernel) vs .func */
    bool is_visible;
    uint32_t line;
    struct hd_var *params;   /* .param of the kernel/function, in order */
    uint32_t nparams;
    struct hd_var *rets;     /* .func return parameters */
    uint32_t nrets;
    struct hd_reg *regs;
    uint32_t nregs;
    struct hd_var *locals;   /* .shared / .local / .param declared in the body */
    uint32_t nlocals;
    struct hd_instr *instrs;
    uint32_t ninstrs;
    uint32_t reqntid[3];     /* .reqntid / .maxntid if given, else 0 */
    uint32_t maxntid[3];
    uint32_t minnctapersm;
    bool has_body;           /* false for a prototype/.extern .func */
    struct hd_call_site *calls; /* one per `call` instruction, in order (added by the front end) */
    uint32_t ncalls;
    uint32_t maxnreg;        /* .maxnreg if given, else 0 (added by the front end) */
    const struct hd_module *module; /* the module that owns this function (added) */
    struct hd_label *labels; /* every label of the body, in source order (added) */
    uint32_t nlabels;
};

struct hd_module {
    char *filename;
    uint32_t version_major, version_minor;
    char *target;
    uint32_t address_size;
    struct hd_var *globals;  /* module-scope .global / .const / .shared */
    uint32_t nglobals;
    struct hd_func *funcs;
    uint32_t nfuncs;
    void *arena;             /* owner of every allocation above */
    uint64_t text_hash;      /* FNV-1a of the PTX text it was parsed from: modules loaded from
                                the same image share it (the timing model's stable kernel id,
                                issue 25 item 7) */
};
/* }==== */

/* {==== Tables over the enums (immutable) ==== */
const char *hd_op_name(enum hd_op op);
enum hd_op_class hd_op_base_class(enum hd_op op);
const char *hd_type_name(enum hd_type t);
unsigned hd_type_bytes(enum hd_type t);   /* 0 for NONE; 1 for PRED (storage) */
bool hd_type_is_signed(enum hd_type t);
bool hd_type_is_float(enum hd_type t);
const char *hd_space_name(enum hd_space s);
const char *hd_sreg_name(enum hd_special_reg s);
/* }==== */

#endif

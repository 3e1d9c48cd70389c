/* SPDX-License-Identifier: MIT
 * ptx_parser.h - internal state and helpers shared by the files of the PTX parser
 * (ptx_parse.c: module and function structure; ptx_decl.c: declarations and initializers;
 * ptx_instr.c: instruction syntax; ptx_opspec.c: modifier rules; ptx_operands.c: operand rules).
 * Not part of the public API.
 *
 * Error handling: the first error formats "file:line:col: error: ..." into the caller's buffer
 * and longjmps back to hd_ptx_parse(), which frees everything. Helpers therefore never return on
 * error, and the parse code reads straight through. Every loop is bounded by the input length or
 * by one of the HD_PTX_MAX_* limits below, and nothing recurses more than HD_PTX_MAX_NEST deep.
 */
#ifndef HD_PTX_PARSER_H
#define HD_PTX_PARSER_H

#include <setjmp.h>

#include "ptx_arena.h"
#include "ptx_ir.h"
#include "ptx_lex.h"
#include "ptx_symtab.h"

#if defined(__GNUC__) || defined(__clang__)
#define HD_PTX_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define HD_PTX_NORETURN __attribute__((noreturn))
#else
#define HD_PTX_PRINTF(a, b)
#define HD_PTX_NORETURN
#endif

/* {==== Limits (each exceeded limit is a located error) ==== */
#define HD_PTX_MAX_INPUT (256u << 20)   /* bytes of PTX text */
#define HD_PTX_MAX_REGS (1u << 18)      /* registers per function */
#define HD_PTX_MAX_INSTRS (1u << 24)    /* instructions per function */
#define HD_PTX_MAX_NEST 64              /* nested { } blocks in a body */
#define HD_PTX_MAX_INIT_NEST 8          /* nested { } in an initializer */
#define HD_PTX_MAX_ARRAY (1ull << 40)   /* bytes of one variable */
#define HD_PTX_MAX_CALL_ARGS 4096       /* values passed by one call */
#define HD_PTX_MAX_DECLS (1u << 20)     /* variables, params, functions of one kind */
/* }==== */

struct hd_ptx_fixup {      /* a branch to a label not yet seen */
    uint32_t instr, opnd;
    uint32_t line, col;
    const char *name;
    uint32_t len;
};

struct hd_ptx_parser {
    struct hd_ptx_lexer lx;
    struct hd_ptx_token tok;   /* current token */
    struct hd_ptx_token ahead; /* next token, valid when has_ahead */
    bool has_ahead;
    uint32_t prev_line, prev_end_col; /* where the previous token ended (for "missing ';'") */
    const char *filename;
    char *err;
    size_t errlen;
    jmp_buf fail;
    struct hd_ptx_arena *arena;
    struct hd_module *m;
    uint32_t globals_cap, funcs_cap;
    struct hd_ptx_symtab globals_tab; /* module variables -> index */
    struct hd_ptx_symtab funcs_tab;   /* functions -> index */
    /* The function whose body is being parsed (NULL outside bodies). */
    struct hd_func *f;
    uint32_t regs_cap, locals_cap, instrs_cap, calls_cap;
    struct hd_ptx_symtab regs_tab;    /* scoped: register name -> index */
    struct hd_ptx_symtab locals_tab;  /* scoped: local variable -> index */
    struct hd_ptx_symtab params_tab;  /* param -> index, return param -> -1 - index */
    struct hd_ptx_symtab labels_tab;  /* label -> instruction index */
    struct hd_ptx_fixup *fixups;
    uint32_t nfixups, fixups_cap;
    uint32_t depth;                   /* { } nesting inside the body */
};

/* {==== Errors and tokens (ptx_parse.c) ==== */
HD_PTX_NORETURN void hd_ptx_fail_at(struct hd_ptx_parser *p, uint32_t line, uint32_t col,
                                    const char *fmt, ...) HD_PTX_PRINTF(4, 5);
#define hd_ptx_fail_tok(p, t, ...) hd_ptx_fail_at((p), (t)->line, (t)->col, __VA_ARGS__)
void hd_ptx_next(struct hd_ptx_parser *p);
const struct hd_ptx_token *hd_ptx_peek(struct hd_ptx_parser *p);
void hd_ptx_expect_punct(struct hd_ptx_parser *p, char c, const char *context);
bool hd_ptx_accept_punct(struct hd_ptx_parser *p, char c);
/* Current token text as a printable, bounded string (for messages). */
const char *hd_ptx_tok_show(const struct hd_ptx_token *t, char *buf, size_t n);
void *hd_ptx_alloc(struct hd_ptx_parser *p, size_t bytes);
/* Grows *array (element size `elem`) so that index `need` fits; *cap is in elements. */
void hd_ptx_reserve(struct hd_ptx_parser *p, void **array, uint32_t *cap, uint32_t need,
                    size_t elem, uint32_t limit, const char *what);
char *hd_ptx_strdup_tok(struct hd_ptx_parser *p, const struct hd_ptx_token *t);
uint64_t hd_ptx_expect_uint(struct hd_ptx_parser *p, uint64_t max, const char *what);
/* }==== */

/* {==== Declarations (ptx_decl.c) ==== */
/* Linkage directives seen before a declaration. */
enum { HD_PTX_LINK_VISIBLE = 1, HD_PTX_LINK_EXTERN = 2, HD_PTX_LINK_WEAK = 4,
       HD_PTX_LINK_COMMON = 8 };
/* A variable declaration whose state-space directive is the current token; it lands in the
 * module's globals, or in the current function's locals when in_function. */
void hd_ptx_parse_var_decl(struct hd_ptx_parser *p, bool in_function, unsigned linkage);
/* `.reg .type name, name<N>, ...;` inside a body. */
void hd_ptx_parse_reg_decl(struct hd_ptx_parser *p);
/* One entry of a parameter list: `.param .type [.ptr ...] [.align N] name [N]`. */
void hd_ptx_parse_param(struct hd_ptx_parser *p, struct hd_var *v, struct hd_ptx_token *name);
enum hd_type hd_ptx_type_from_dir(const struct hd_ptx_token *t); /* HD_T_NONE if not a type */
enum hd_space hd_ptx_space_from_dir(const struct hd_ptx_token *t); /* NONE if not a space */
/* }==== */

/* {==== Instructions (ptx_instr.c, ptx_opspec.c, ptx_operands.c) ==== */
/* Where each operand was written, and facts about it the IR does not keep. */
struct hd_ptx_opnd_info {
    uint32_t line, col;
    bool decimal; /* a decimal floating literal (not 0f/0d) */
};

/* Parses one instruction (optional guard, opcode, modifiers, operands, ';') and appends it to
 * the current function. */
void hd_ptx_parse_instr(struct hd_ptx_parser *p);
/* Applies one modifier directive token to `in`; fails on an unknown or misplaced one. */
void hd_ptx_apply_modifier(struct hd_ptx_parser *p, struct hd_instr *in, uint32_t *ntypes,
                           uint64_t *seen, const struct hd_ptx_token *t);
/* Checks that a complete instruction has the types and modifiers its opcode requires. */
void hd_ptx_check_modifiers(struct hd_ptx_parser *p, struct hd_instr *in, uint32_t ntypes,
                            uint64_t seen);
/* Checks the modifiers and operands of a complete instruction and normalises immediates. */
void hd_ptx_check_instr(struct hd_ptx_parser *p, struct hd_instr *in, uint32_t ntypes,
                        uint64_t seen, const struct hd_ptx_opnd_info *info);
/* Special register named by an identifier ("%tid"), or HD_SREG_NONE. */
enum hd_special_reg hd_ptx_sreg_lookup(const char *name, size_t len);
/* }==== */

#endif

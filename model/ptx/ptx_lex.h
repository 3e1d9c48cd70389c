/* SPDX-License-Identifier: MIT
 * ptx_lex.h - the PTX tokenizer.
 *
 * The lexer turns bytes into tokens one at a time, on demand, keeping a 1-based line and column
 * (columns count bytes; a tab is one column) for every token. It never reads past `len` and needs
 * no NUL terminator. Comments (// and block comments) are skipped. A dot followed by a name is one
 * token (".global", ".f32", ".L1::evict_last"), so `ld.global.f32` lexes as `ld` `.global`
 * `.f32`, and `%tid.x` as `%tid` `.x`; `space_before` tells the parser whether they touched.
 * Malformed input gives an HD_TOK_ERROR token whose `msg` says what is wrong.
 */
#ifndef HD_PTX_LEX_H
#define HD_PTX_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hd_tok_kind {
    HD_TOK_EOF = 0,
    HD_TOK_IDENT,  /* name, %name, $name, _ */
    HD_TOK_DIR,    /* .name (text includes the dot) */
    HD_TOK_INT,    /* integer literal: u = value (two's complement) */
    HD_TOK_F32,    /* 0fXXXXXXXX: u = bits */
    HD_TOK_F64,    /* 0dXXXXXXXXXXXXXXXX: u = bits */
    HD_TOK_FLOAT,  /* decimal floating literal: f = value */
    HD_TOK_STRING, /* "..." (text includes the quotes) */
    HD_TOK_PUNCT,  /* one character: text[0] */
    HD_TOK_ERROR   /* msg says why */
};

struct hd_ptx_token {
    enum hd_tok_kind kind;
    const char *text;
    uint32_t len;
    uint32_t line, col;
    bool space_before;    /* whitespace or a comment separates it from the previous token */
    bool newline_before;  /* a line break separates it from the previous token */
    bool is_unsigned;     /* integer literal had a U suffix */
    uint64_t u;
    double f;
    const char *msg;      /* HD_TOK_ERROR only (static text) */
};

struct hd_ptx_lexer {
    const char *src;
    size_t len, pos;
    uint32_t line, col;
    char msgbuf[64]; /* text of the last HD_TOK_ERROR */
};

void hd_ptx_lex_init(struct hd_ptx_lexer *lx, const char *src, size_t len);
void hd_ptx_lex_next(struct hd_ptx_lexer *lx, struct hd_ptx_token *t);
/* Skip to the end of the current line (for .loc / .file, which have no terminating ';'). */
void hd_ptx_lex_skip_line(struct hd_ptx_lexer *lx);
bool hd_ptx_tok_is(const struct hd_ptx_token *t, const char *s); /* text equals s */
bool hd_ptx_tok_punct(const struct hd_ptx_token *t, char c);

#endif

/* SPDX-License-Identifier: MIT
 * ptx_lex.c - the PTX tokenizer (see ptx_lex.h).
 *
 * Each call scans exactly one token, so the work is linear in the input and no state is kept
 * besides the position. Numbers are converted here (integers exactly, with overflow detected;
 * decimal floats with strtod on a bounded copy), so the parser never re-reads digits.
 */
#include "ptx_lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HD_LEX_MAX_NUMBER 80 /* longest decimal float literal we convert */

void hd_ptx_lex_init(struct hd_ptx_lexer *lx, const char *src, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->src = src;
    lx->len = len;
    lx->line = 1;
    lx->col = 1;
}

static int peekc(const struct hd_ptx_lexer *lx, size_t ahead)
{
    size_t i = lx->pos + ahead;
    return i < lx->len ? (unsigned char)lx->src[i] : -1;
}

static void advance(struct hd_ptx_lexer *lx)
{
    if (lx->pos >= lx->len)
        return;
    if (lx->src[lx->pos] == '\n') {
        lx->line++;
        lx->col = 1;
    } else {
        lx->col++;
    }
    lx->pos++;
}

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ident(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void set_error(struct hd_ptx_lexer *lx, struct hd_ptx_token *t, const char *msg)
{
    snprintf(lx->msgbuf, sizeof lx->msgbuf, "%s", msg);
    t->kind = HD_TOK_ERROR;
    t->msg = lx->msgbuf;
}

/* Skips blanks and comments; returns false (and sets an error token) on an unterminated one. */
static bool skip_space(struct hd_ptx_lexer *lx, struct hd_ptx_token *t)
{
    for (;;) {
        int c = peekc(lx, 0);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            if (c == '\n')
                t->newline_before = true;
            t->space_before = true;
            advance(lx);
        } else if (c == '/' && peekc(lx, 1) == '/') {
            while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
                advance(lx);
            t->space_before = true;
        } else if (c == '/' && peekc(lx, 1) == '*') {
            t->line = lx->line;
            t->col = lx->col;
            t->text = lx->src + lx->pos;
            t->len = 2;
            advance(lx);
            advance(lx);
            for (;;) {
                if (lx->pos >= lx->len) {
                    set_error(lx, t, "unterminated comment");
                    return false;
                }
                if (peekc(lx, 0) == '*' && peekc(lx, 1) == '/') {
                    advance(lx);
                    advance(lx);
                    break;
                }
                if (peekc(lx, 0) == '\n')
                    t->newline_before = true;
                advance(lx);
            }
            t->space_before = true;
        } else {
            return true;
        }
    }
}

/* Integer in `base` from the current position; digits only (prefix already consumed). */
static void lex_integer(struct hd_ptx_lexer *lx, struct hd_ptx_token *t, unsigned base)
{
    uint64_t v = 0;
    bool any = false, overflow = false;
    for (;;) {
        int d = hex_value(peekc(lx, 0));
        if (d < 0 || (unsigned)d >= base)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / base)
            overflow = true;
        v = v * base + (uint64_t)d;
        any = true;
        advance(lx);
    }
    if (!any && base != 8) {
        set_error(lx, t, "malformed number");
        return;
    }
    if (overflow) {
        set_error(lx, t, "integer literal does not fit in 64 bits");
        return;
    }
    t->kind = HD_TOK_INT;
    t->u = v;
    if (peekc(lx, 0) == 'U' || peekc(lx, 0) == 'u') {
        t->is_unsigned = true;
        advance(lx);
    }
}

static void lex_hexfloat(struct hd_ptx_lexer *lx, struct hd_ptx_token *t, unsigned digits)
{
    uint64_t v = 0;
    advance(lx); /* 0 */
    advance(lx); /* f or d */
    for (unsigned i = 0; i < digits; i++) {
        int d = hex_value(peekc(lx, 0));
        if (d < 0) {
            set_error(lx, t, digits == 8 ? "0f literal needs 8 hex digits"
                                         : "0d literal needs 16 hex digits");
            return;
        }
        v = v << 4 | (uint64_t)d;
        advance(lx);
    }
    t->kind = digits == 8 ? HD_TOK_F32 : HD_TOK_F64;
    t->u = v;
}

/* A decimal float if the digits are followed by '.' or an exponent, else a decimal integer. */
static void lex_decimal(struct hd_ptx_lexer *lx, struct hd_ptx_token *t)
{
    size_t i = lx->pos;
    while (i < lx->len && is_digit((unsigned char)lx->src[i]))
        i++;
    bool is_float = false;
    if (i < lx->len && lx->src[i] == '.') {
        is_float = true;
        i++;
        while (i < lx->len && is_digit((unsigned char)lx->src[i]))
            i++;
    }
    if (i < lx->len && (lx->src[i] == 'e' || lx->src[i] == 'E')) {
        size_t j = i + 1;
        if (j < lx->len && (lx->src[j] == '+' || lx->src[j] == '-'))
            j++;
        if (j < lx->len && is_digit((unsigned char)lx->src[j])) {
            is_float = true;
            i = j;
            while (i < lx->len && is_digit((unsigned char)lx->src[i]))
                i++;
        }
    }
    if (!is_float) {
        lex_integer(lx, t, 10);
        return;
    }
    size_t n = i - lx->pos;
    if (n >= HD_LEX_MAX_NUMBER) {
        set_error(lx, t, "floating-point literal too long");
        return;
    }
    char buf[HD_LEX_MAX_NUMBER];
    memcpy(buf, lx->src + lx->pos, n);
    buf[n] = '\0';
    t->f = strtod(buf, NULL);
    t->kind = HD_TOK_FLOAT;
    while (lx->pos < i)
        advance(lx);
}

static void lex_number(struct hd_ptx_lexer *lx, struct hd_ptx_token *t)
{
    int c1 = peekc(lx, 1);
    if (peekc(lx, 0) == '0' && (c1 == 'f' || c1 == 'F')) {
        lex_hexfloat(lx, t, 8);
    } else if (peekc(lx, 0) == '0' && (c1 == 'd' || c1 == 'D')) {
        lex_hexfloat(lx, t, 16);
    } else if (peekc(lx, 0) == '0' && (c1 == 'x' || c1 == 'X')) {
        advance(lx);
        advance(lx);
        lex_integer(lx, t, 16);
    } else if (peekc(lx, 0) == '0' && (c1 == 'b' || c1 == 'B')) {
        advance(lx);
        advance(lx);
        lex_integer(lx, t, 2);
    } else if (peekc(lx, 0) == '0' && is_digit(c1)) {
        size_t j = lx->pos;
        while (j < lx->len && is_digit((unsigned char)lx->src[j]))
            j++;
        if (j < lx->len && (lx->src[j] == '.' || lx->src[j] == 'e' || lx->src[j] == 'E')) {
            lex_decimal(lx, t);
        } else {
            advance(lx);
            lex_integer(lx, t, 8);
        }
    } else {
        lex_decimal(lx, t);
    }
    if (t->kind != HD_TOK_ERROR && is_ident(peekc(lx, 0)))
        set_error(lx, t, "malformed number");
}

static void lex_string(struct hd_ptx_lexer *lx, struct hd_ptx_token *t)
{
    advance(lx);
    for (;;) {
        int c = peekc(lx, 0);
        if (c < 0 || c == '\n') {
            set_error(lx, t, "unterminated string");
            return;
        }
        advance(lx);
        if (c == '"')
            break;
        if (c == '\\' && peekc(lx, 0) >= 0 && peekc(lx, 0) != '\n')
            advance(lx);
    }
    t->kind = HD_TOK_STRING;
}

void hd_ptx_lex_next(struct hd_ptx_lexer *lx, struct hd_ptx_token *t)
{
    memset(t, 0, sizeof *t);
    if (!skip_space(lx, t))
        return;
    t->line = lx->line;
    t->col = lx->col;
    t->text = lx->src + lx->pos;
    size_t start = lx->pos;
    int c = peekc(lx, 0);
    if (c < 0) {
        t->kind = HD_TOK_EOF;
    } else if (is_alpha(c) || ((c == '_' || c == '$' || c == '%') && is_ident(peekc(lx, 1)))) {
        advance(lx);
        while (is_ident(peekc(lx, 0)))
            advance(lx);
        t->kind = HD_TOK_IDENT;
    } else if (c == '_') {
        advance(lx);
        t->kind = HD_TOK_IDENT;
    } else if (c == '.' && is_ident(peekc(lx, 1))) { /* .f32, .v4, .2d, .L1::evict_last */
        advance(lx);
        while (is_ident(peekc(lx, 0)))
            advance(lx);
        while (peekc(lx, 0) == ':' && peekc(lx, 1) == ':' && is_ident(peekc(lx, 2))) {
            advance(lx);
            advance(lx);
            while (is_ident(peekc(lx, 0)))
                advance(lx);
        }
        t->kind = HD_TOK_DIR;
    } else if (is_digit(c)) {
        lex_number(lx, t);
    } else if (c == '"') {
        lex_string(lx, t);
    } else if (c != 0 && strchr(",;:[]{}()<>+-!@|=", c) != NULL) {
        advance(lx);
        t->kind = HD_TOK_PUNCT;
    } else {
        char msg[48];
        if (c >= 0x20 && c < 0x7f)
            snprintf(msg, sizeof msg, "unexpected character '%c'", c);
        else
            snprintf(msg, sizeof msg, "unexpected byte 0x%02x", (unsigned)c);
        advance(lx);
        set_error(lx, t, msg);
    }
    size_t n = lx->pos - start;
    t->len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

void hd_ptx_lex_skip_line(struct hd_ptx_lexer *lx)
{
    while (lx->pos < lx->len && lx->src[lx->pos] != '\n')
        advance(lx);
}

bool hd_ptx_tok_is(const struct hd_ptx_token *t, const char *s)
{
    if (t->len == 0 || t->text[0] != s[0])
        return false;
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

bool hd_ptx_tok_punct(const struct hd_ptx_token *t, char c)
{
    return t->kind == HD_TOK_PUNCT && t->text[0] == c;
}

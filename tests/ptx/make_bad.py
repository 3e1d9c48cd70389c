#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# make_bad.py - writes tests/ptx/bad/*.ptx: malformed PTX, each with the exact error the front end
# must report on its first line ("// expect: LINE:COL: fragment"). Most cases put one bad line into
# a small nvcc-style module; the expected column is computed from a marker in that line, so a
# case reads as "this line, at this token, must give this message". Run it after changing a case;
# the files are committed and the test (tests/unit/test_ptx_corpus.c) reads only them.
import os
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")
os.makedirs(out, exist_ok=True)

HEAD = """.version 9.0
.target sm_75
.address_size 64
"""
KERNEL = """
.global .align 4 .u32 g_count;
.func  (.param .b32 func_retval0) helper(
	.param .b32 helper_param_0
)
{
	.reg .b32 	%r<3>;

	ld.param.u32 	%r1, [helper_param_0];
	add.s32 	%r2, %r1, 1;
	st.param.b32 	[func_retval0+0], %r2;
	ret;
}

.visible .entry scale(
	.param .u64 scale_param_0,
	.param .u32 scale_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .f32 	%f<3>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<5>;
	.shared .align 4 .b8 tile[128];

	ld.param.u64 	%rd1, [scale_param_0];
	ld.param.u32 	%r2, [scale_param_1];
	mov.u32 	%r3, %tid.x;
	setp.ge.s32 	%p1, %r3, %r2;
	@%p1 bra 	$L__BB1_2;
@@
	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.s32 	%rd3, %r3, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.f32 	%f1, [%rd4];
	mul.f32 	%f2, %f1, 0f40000000;
	st.global.f32 	[%rd4], %f2;

$L__BB1_2:
	ret;

}
"""

def body_case(name, line, at, frag, nth=1):
    # `line` replaces @@ inside the kernel body; the error is expected at the nth `at` in it.
    text = HEAD + KERNEL
    pre = text.split("@@")[0]
    lineno = pre.count("\n") + 2  # +1 for the expect line, +1 for 1-based
    col = find(line, at, nth)
    write(name, lineno, col, frag, text.replace("@@", line))

def find(line, at, nth):
    if at is None:
        return len(line) + 1  # just past the end of the line
    i = -1
    for _ in range(nth):
        i = line.index(at, i + 1)
    return i + 1

def raw_case(name, content, line_has, at, frag, nth=1, last=False):
    # The error is expected on the first (or last) line containing `line_has`, at the nth `at`.
    lines = content.split("\n")
    ks = [i for i, l in enumerate(lines) if line_has in l]
    k = ks[-1] if last else ks[0]
    write(name, k + 2, find(lines[k], at, nth), frag, content)

def write(name, line, col, frag, content):
    with open(os.path.join(out, name + ".ptx"), "wb") as f:
        f.write(f"// expect: {line}:{col}: {frag}\n".encode())
        f.write(content.encode("latin-1") if isinstance(content, str) else content)

B = "\t"
body_case("unknown_opcode", B + "frobnicate.s32 \t%r4, %r3;", "frob", "unknown opcode 'frobnicate'")
body_case("unknown_opcode_tex", B + "tex.2d.v4.f32.f32 {%f1, %f2, %f1, %f2}, [t, {%f1, %f2}];", "tex", "unknown opcode 'tex'")
body_case("unknown_modifier", B + "add.s32.quux \t%r4, %r3, 1;", ".quux", "unknown modifier '.quux'")
body_case("modifier_not_valid", B + "add.wide.f32 \t%f1, %f1, %f2;", ".wide", "'.wide' is not valid for 'add'")
body_case("operand_count", B + "add.s32 \t%r4, %r3;", "add", "'add' takes 3 operands, found 2")
body_case("too_many_operands", B + "mov.u32 %r4, %r3, %r3, %r3, %r3, %r3, %r3;", "%r3", "too many operands for 'mov'", 6)
body_case("undeclared_register", B + "add.s32 \t%r4, %r3, %r9;", "%r9", "undeclared register '%r9'")
body_case("register_type_mismatch", B + "add.s32 \t%r4, %rd1, 1;", "%rd1", "register '%rd1' (.b64) does not match type .s32")
body_case("float_register_in_int_op", B + "add.s32 \t%r4, %f1, 1;", "%f1", "does not match type .s32")
body_case("missing_semicolon", B + "add.s32 \t%r4, %r3, 1", None, "missing ';' after the instruction")
body_case("unknown_body_directive", B + ".maxwarps 4;", ".maxwarps", "unknown directive '.maxwarps' in a function body")
dl = (HEAD + KERNEL).replace("@@", "$L__BB1_2:")
raw_case("duplicate_label", dl, "$L__BB1_2:", "$", "duplicate label '$L__BB1_2'", last=True)
body_case("duplicate_register", B + ".reg .b32 %r<2>;", "%r", "duplicate register '%r0'")
body_case("undefined_label", B + "bra.uni \t$L__BB1_9;", "$L", "undefined label '$L__BB1_9'")
body_case("vector_length", B + "ld.global.v4.f32 \t{%f1, %f2}, [%rd1];", "{", "vector length does not match .v2/.v4")
body_case("space_mismatch", B + "ld.shared.u32 \t%r4, [g_count];", "[", "'g_count' is in .global, not .shared")
body_case("short_hex_float", B + "mul.f32 \t%f2, %f1, 0f4000;", "0f", "0f literal needs 8 hex digits")
body_case("int_overflow", B + "add.u64 \t%rd2, %rd1, 18446744073709551616;", "1844", "does not fit in 64 bits")
body_case("unexpected_character", B + "add.s32 \t%r4, %r3, #1;", "#", "unexpected character '#'")
body_case("guard_not_predicate", B + "@%r1 bra \t$L__BB1_2;", "%r1", "'%r1' is not a predicate register")
body_case("special_register_component", B + "mov.u32 \t%r4, %ctaid;", "%ctaid", "'%ctaid' needs a component .x, .y or .z")
body_case("setp_destination", B + "setp.lt.s32 \t%r4, %r3, 1;", "%r4", "not a predicate register")
body_case("missing_type", B + "add \t%r4, %r3, 1;", "add", "'add' needs a type")
body_case("negated_non_predicate", B + "add.s32 \t%r4, !%p1, 1;", "!", "'!' is not allowed here")
body_case("sink_as_source", B + "add.s32 \t%r4, _, 1;", "_", "'_' can only be a destination")
body_case("float_literal_int_op", B + "add.s32 \t%r4, %r3, 2.5;", "2.5", "floating-point constant does not fit")
body_case("mul_needs_mode", B + "mul.s32 \t%r4, %r3, 3;", "mul", "'mul' on integers needs .lo, .hi or .wide")
body_case("call_arg_count", B + "{ .param .b32 p0; .param .b32 p1; call.uni helper, (p0, p1); }", "helper", "passes 2 arguments, it takes 1")
body_case("call_undeclared", B + "call.uni nothere, ();", "nothere", "call to undeclared function 'nothere'")
body_case("address_not_closed", B + "ld.global.f32 \t%f1, [%rd4+4;", "[", "address is not closed with ']'")
body_case("label_operand_address", B + "ld.global.f32 \t%f1, %rd4;", "%rd4", "operand 2 of 'ld': expected an address")
body_case("bar_red_needs_op", B + "bar.red.u32 \t%r4, 0, %p1;", "bar", ".red needs .popc, .and or .or")
body_case("atom_needs_op", B + "atom.global.u32 \t%r4, [%rd1], 1;", "atom", "'atom' needs an operation")
body_case("unterminated_comment", B + "/* the rest of the file", "/*", "unterminated comment")
body_case("unterminated_string", B + ".pragma \"nounroll;", "\"", "unterminated string")
body_case("global_in_function", B + ".global .u32 inner;", ".global", ".global variables cannot be declared inside a function")

def mod(text, *repl):
    for a, b in repl:
        assert a in text, a
        text = text.replace(a, b, 1)
    return text

full = HEAD + KERNEL.replace("@@\n", "")
raw_case("missing_version", mod(full, (".version 9.0\n", "")), ".target", ".target", "expected .version before '.target'")
raw_case("version_10", mod(full, (".version 9.0", ".version 10.0")), ".version", "10.0", "unsupported PTX ISA version 10.0")
raw_case("bad_target", mod(full, ("sm_75", "gfx1100")), ".target", "gfx", "unknown target 'gfx1100'")
raw_case("unknown_module_directive", mod(full, (".global .align 4", ".texref tex_a;\n.global .align 4")), ".texref", ".texref", "unknown or misplaced directive '.texref'")
dup = full + "\n.func  (.param .b32 func_retval0) helper2(\n\t.param .b32 helper_param_0\n)\n{\n\tret;\n}\n"
raw_case("duplicate_function", dup.replace("helper2", "helper"), "\n.func".strip() + "  (.param .b32 func_retval0) helper(", "helper", "redefinition of function 'helper'", last=True)
bnc = mod(full, ("$L__BB1_2:\n\tret;\n\n}\n", "$L__BB1_2:\n\tret;\n"))
bl = bnc.split("\n")
write("body_not_closed", bl.index(".visible .entry scale(") + 4 + 2, 1, "function body is not closed (missing '}')", bnc)
raw_case("array_needs_size", mod(full, (".u32 g_count;", ".u32 g_count[];")), "g_count[]", "g_count", "array 'g_count' needs a size")
raw_case("initializer_too_long", mod(full, (".u32 g_count;", ".u32 g_count[2] = {1, 2, 3};")), "g_count[2]", "3}", "too many initializers for 'g_count'")
raw_case("duplicate_parameter", mod(full, ("scale_param_1\n", "scale_param_0\n")), ".u32 scale_param_0", "scale_param_0", "duplicate parameter 'scale_param_0'")
raw_case("bad_alignment", mod(full, (".align 4 .u32 g_count", ".align 6 .u32 g_count")), ".align 6", "6", "alignment 6 is not a power of two")
raw_case("nul_byte", mod(full, ("\tret;\n\n}", "\tret;\x00\n\n}")), "\x00", "\x00", "unexpected byte 0x00")
raw_case("non_ascii", mod(full, ("\tret;\n\n}", "\tret; \xe2\x80\x94\n\n}")), "\xe2", "\xe2", "unexpected byte 0xe2")
raw_case("nested_too_deep", mod(full, ("$L__BB1_2:\n", "$L__BB1_2:\n" + "{" * 70 + "\n")), "{{{{", "{", "blocks nested too deeply", 65)
raw_case("label_at_end", mod(full, ("$L__BB1_2:\n\tret;\n", "\tret;\n$L__BB1_2:\n")), "@%p1 bra", "$L", "label '$L__BB1_2' has no instruction after it")
raw_case("register_range_too_big", mod(full, ("%rd<5>", "%rd<999999>")), "%rd<", "999999", "register count 999999 is out of range")
raw_case("param_pred_type", mod(full, (".param .u32 scale_param_1", ".param .pred scale_param_1")), ".pred scale", ".pred", ".pred parameters are not allowed")
print("written", len(os.listdir(out)))

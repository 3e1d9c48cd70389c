// SPDX-License-Identifier: MIT
/**
 * hd_assert.svh - Heddle's assertion macros (style rule R2).
 *
 * Under simulation (Verilator with --assert, Icarus) they expand to real SystemVerilog
 * assertions: concurrent properties checked at every rising clock edge outside reset, and
 * elaboration-time checks of parameter constraints. Unlike lowRISC's prim_assert.sv they do NOT
 * become dummies under VERILATOR. Only synthesis (SYNTHESIS, which Yosys' read_verilog defines)
 * drops them. Names start with the block name (HdRegpatComp...).
 *
 *   `HD_ASSERT(Name, property_expr, clk, rst_n)   property holds at every edge outside reset
 *   `HD_ASSERT_KNOWN(Name, signal, clk, rst_n)    signal has no X/Z bits outside reset
 *   `HD_ASSERT_INIT(Name, condition)              parameter constraint, checked at time 0
 */
`ifndef HD_ASSERT_SVH
`define HD_ASSERT_SVH

`ifdef SYNTHESIS
`define HD_ASSERT(__name, __prop, __clk, __rst_n)
`define HD_ASSERT_KNOWN(__name, __sig, __clk, __rst_n)
`define HD_ASSERT_INIT(__name, __cond)
`else
`define HD_ASSERT(__name, __prop, __clk, __rst_n) \
  __name: assert property (@(posedge __clk) disable iff (!(__rst_n)) (__prop)) \
    else $error("assertion %s failed", `"__name`");
`define HD_ASSERT_KNOWN(__name, __sig, __clk, __rst_n) \
  `HD_ASSERT(__name, !$isunknown(__sig), __clk, __rst_n)
`define HD_ASSERT_INIT(__name, __cond) \
  initial begin : __name \
    assert (__cond) else $fatal(1, "parameter constraint %s violated", `"__name`"); \
  end
`endif

`endif

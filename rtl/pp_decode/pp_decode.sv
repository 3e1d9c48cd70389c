// SPDX-License-Identifier: MIT
/**
 * pp_decode - decoder of Lin's preemption-point instructions (thesis §2.5, digest §3.2).
 *
 * One 64-bit instruction word per cycle: opcode [63:54], liveness vector [53:0]. Opcodes 0x3F0
 * (pp: a NOP until a preemption is pending, then the warp stops in front of the next
 * instruction), 0x3F1 (the dummy word after a pp: the divergence-aware vector) and 0x3F2 (bar.pp:
 * a barrier that is a point). For such a word the block flags its kind, passes the vector on and
 * counts the registers the save path will read: popcount of bits [52:0] plus 11 when bit 53
 * ("some register >= R53 is live": R53..R63) is set. Any other word decodes to all zeros but
 * valid_o.
 *
 * Registered outputs: all (valid_o, is_pp_o, is_dummy_o, is_barpp_o, live_o, nregs_o), one cycle
 * after the input, 0 in cycles where valid_o is 0. Bit-exact C reference: tables/pp_decode.c;
 * ports: pp_decode_ports.def.
 *
 * Parameters:
 *   ResetAll  1: the vector and count flops get the asynchronous reset too; 0: only the valid
 *             and kind flops are reset (the vector and count flops load 0 in idle cycles, so they
 *             are 0 after the first clock edge of reset).
 */
`include "../include/hd_assert.svh"

module pp_decode #(
  parameter bit ResetAll = 1'b0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        valid_i,
  input  logic [63:0] inst_i,
  output logic        valid_o,
  output logic        is_pp_o,
  output logic        is_dummy_o,
  output logic        is_barpp_o,
  output logic [53:0] live_o,
  output logic [6:0]  nregs_o
);

  localparam logic [9:0] OpPp    = 10'h3F0;
  localparam logic [9:0] OpDummy = 10'h3F1;
  localparam logic [9:0] OpBarPp = 10'h3F2;
  localparam int unsigned HighBit = 53;
  localparam logic [6:0] HighRegs = 7'd11;  // R53..R63

  logic [9:0]  op;
  logic        pp_d, dummy_d, barpp_d, point_d;
  logic [53:0] live_d;
  logic [6:0]  nregs_d;
  logic [6:0]  low_count;

  assign op      = inst_i[63:54];
  assign pp_d    = valid_i && op == OpPp;
  assign dummy_d = valid_i && op == OpDummy;
  assign barpp_d = valid_i && op == OpBarPp;
  assign point_d = pp_d || dummy_d || barpp_d;

  always_comb begin
    low_count = '0;
    for (int i = 0; i < HighBit; i++) begin
      low_count = low_count + 7'(inst_i[i]);
    end
  end

  assign live_d  = point_d ? inst_i[53:0] : '0;
  assign nregs_d = point_d ? low_count + (inst_i[HighBit] ? HighRegs : 7'd0) : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o    <= 1'b0;
      is_pp_o    <= 1'b0;
      is_dummy_o <= 1'b0;
      is_barpp_o <= 1'b0;
    end else begin
      valid_o    <= valid_i;
      is_pp_o    <= pp_d;
      is_dummy_o <= dummy_d;
      is_barpp_o <= barpp_d;
    end
  end

  if (ResetAll) begin : g_dp_reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        live_o  <= '0;
        nregs_o <= '0;
      end else begin
        live_o  <= live_d;
        nregs_o <= nregs_d;
      end
    end
  end else begin : g_dp_noreset
    always_ff @(posedge clk_i) begin
      live_o  <= live_d;
      nregs_o <= nregs_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_KNOWN(HdPpDecodeValidKnown, valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdPpDecodeKindKnown, {is_pp_o, is_dummy_o, is_barpp_o}, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdPpDecodeLiveKnown, live_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdPpDecodeNregsKnown, nregs_o, clk_i, rst_ni)
  // At most one kind per word; kinds only with valid.
  `HD_ASSERT(HdPpDecodeOneKind, $onehot0({is_pp_o, is_dummy_o, is_barpp_o}), clk_i, rst_ni)
  `HD_ASSERT(HdPpDecodeKindValid, valid_o || !(is_pp_o || is_dummy_o || is_barpp_o), clk_i,
             rst_ni)
  // Other words carry no vector and no count; the count never exceeds 64 registers.
  `HD_ASSERT(HdPpDecodeNoVector, (is_pp_o || is_dummy_o || is_barpp_o) ||
             (live_o == '0 && nregs_o == '0), clk_i, rst_ni)
  `HD_ASSERT(HdPpDecodeCountRange, nregs_o <= 7'd64, clk_i, rst_ni)

endmodule

// SPDX-License-Identifier: MIT
/**
 * regpat_comp - warp-level register pattern compressor (Lin thesis §2.3.3, Fig 2.10).
 *
 * One 32-lane vector register of 32-bit values per cycle. Stage 1 registers the 31 differences
 * of adjacent lanes (the PAG-1 subtractors of each pattern analyzing group are a subset of them)
 * and the lanes that start a group (0, 8, 16, 24). Stage 2 derives, per group of PAG = 8, 16 or
 * 32 lanes, a = (the group's first difference is non-zero) and b = (all its differences are
 * equal), and reduces the groups to the register's pattern {a,b}: 01 uniform (every group
 * uniform), 11 strided (every group b = 1), 10 random, 00 dead (not live). Polarity: a = 1 means
 * the first difference is NON-zero, the only reading under which the thesis' codes 01/11 decode
 * (docs/blocks/regpat.md). Outputs: group bases and strides (words g < 32/PAG, else 0; strides
 * only when strided) and the 32-bit words the register needs in the context.
 *
 * Registered outputs: all (valid_o, pat_o, base_o, stride_o, words_o), two cycles after the
 * input (fully pipelined, Lin's assumed 2-cycle latency), and 0 in cycles where valid_o is 0.
 * Bit-exact C reference: compressors/regpat_comp.c; ports: regpat_comp_ports.def.
 *
 * Parameters:
 *   ResetAll  1: the stage-1 datapath flops (differences, group bases) get the async reset too;
 *             0: only control and output flops are reset (smaller; the datapath is qualified by
 *             the reset valid flop).
 * Test-only: `define HD_FAULT_REGPAT_FLIP flips stride_o bit 0 of strided results when the
 * simulation runs with +hd_fault_flip (cosim test; the fault build defines every HD_FAULT_*).
 */
`include "../include/hd_assert.svh"

module regpat_comp #(
  parameter bit ResetAll = 1'b0
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          valid_i,
  input  logic          live_i,
  input  logic [1:0]    pag_i,
  input  logic [1023:0] data_i,
  output logic          valid_o,
  output logic [1:0]    pat_o,
  output logic [127:0]  base_o,
  output logic [127:0]  stride_o,
  output logic [5:0]    words_o
);

  localparam int unsigned Lanes     = 32;
  localparam int unsigned MaxGroups = 4;

  localparam logic [1:0] PatDead    = 2'b00;
  localparam logic [1:0] PatUniform = 2'b01;
  localparam logic [1:0] PatRandom  = 2'b10;
  localparam logic [1:0] PatStrided = 2'b11;

  ////////////////////////////
  // Stage 1: subtractors   //
  ////////////////////////////

  // Flat vectors (32 bits per element) rather than packed 2-D arrays: Yosys 0.23 reads these.
  logic [32*(Lanes-1)-1:0] diff_d, diff_q;    // element j = lane j+1 - lane j
  logic [32*MaxGroups-1:0] gbase_d, gbase_q;  // element g = lane 8g
  logic       valid_q, live_q;
  logic [1:0] pag_q;

  for (genvar i = 0; i < Lanes - 1; i++) begin : g_sub
    assign diff_d[32*i +: 32] = data_i[32*(i+1) +: 32] - data_i[32*i +: 32];
  end
  for (genvar g = 0; g < MaxGroups; g++) begin : g_base
    assign gbase_d[32*g +: 32] = data_i[256*g +: 32];
  end

`ifdef HD_FAULT_REGPAT_FLIP
  bit fault_flip_on;
  initial fault_flip_on = $test$plusargs("hd_fault_flip");
`endif

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= 1'b0;
      live_q  <= 1'b0;
      pag_q   <= 2'd0;
    end else begin
      valid_q <= valid_i;
      live_q  <= live_i;
      pag_q   <= pag_i;
    end
  end

  if (ResetAll) begin : g_dp_reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        diff_q  <= '0;
        gbase_q <= '0;
      end else begin
        diff_q  <= diff_d;
        gbase_q <= gbase_d;
      end
    end
  end else begin : g_dp_noreset
    always_ff @(posedge clk_i) begin
      diff_q  <= diff_d;
      gbase_q <= gbase_d;
    end
  end

  ////////////////////////////////////////
  // Stage 2: comparators and reduction //
  ////////////////////////////////////////

  // eq[j]: differences j and j+1 are equal (lanes j, j+1, j+2 in one progression).
  logic [Lanes-3:0] eq;
  for (genvar j = 0; j < Lanes - 2; j++) begin : g_eq
    assign eq[j] = diff_q[32*(j+1) +: 32] == diff_q[32*j +: 32];
  end

  // Per PAG width: b (all differences of the group equal) and a (first difference non-zero).
  logic [3:0] b8, a8;
  logic [1:0] b16, a16;
  logic       b32, a32;
  for (genvar g = 0; g < 4; g++) begin : g_pag8
    assign b8[g] = &eq[8*g +: 6];
    assign a8[g] = |diff_q[256*g +: 32];
  end
  for (genvar h = 0; h < 2; h++) begin : g_pag16
    assign b16[h] = &eq[16*h +: 14];
    assign a16[h] = |diff_q[512*h +: 32];
  end
  assign b32 = &eq;
  assign a32 = |diff_q[31:0];

  logic                       all_b, all_uniform;
  logic [MaxGroups-1:0]       grp_en;       // groups that exist at this PAG
  logic [32*MaxGroups-1:0]    grp_base, grp_stride;
  logic [5:0]                 ngroups;

  always_comb begin
    grp_base   = '0;
    grp_stride = '0;
    unique case (pag_q)
      2'd0: begin
        all_b       = &b8;
        all_uniform = &(b8 & ~a8);
        grp_en      = 4'b1111;
        ngroups     = 6'd4;
        for (int g = 0; g < 4; g++) begin
          grp_base[32*g +: 32]   = gbase_q[32*g +: 32];
          grp_stride[32*g +: 32] = diff_q[256*g +: 32];
        end
      end
      2'd1: begin
        all_b         = &b16;
        all_uniform   = &(b16 & ~a16);
        grp_en        = 4'b0011;
        ngroups       = 6'd2;
        grp_base[31:0]    = gbase_q[31:0];
        grp_base[63:32]   = gbase_q[95:64];
        grp_stride[31:0]  = diff_q[31:0];
        grp_stride[63:32] = diff_q[543:512];
      end
      default: begin  // 2'd2 and 2'd3: 32 lanes
        all_b         = b32;
        all_uniform   = b32 & ~a32;
        grp_en        = 4'b0001;
        ngroups       = 6'd1;
        grp_base[31:0]   = gbase_q[31:0];
        grp_stride[31:0] = diff_q[31:0];
      end
    endcase
  end

  logic          valid_d;
  logic [1:0]    pat_d;
  logic [127:0]  base_d, stride_d;
  logic [5:0]    words_d;

  always_comb begin
    valid_d  = valid_q;
    pat_d    = PatDead;
    base_d   = '0;
    stride_d = '0;
    words_d  = '0;
    if (valid_q && live_q) begin
      if (!all_b) begin
        pat_d   = PatRandom;
        words_d = 6'(Lanes);
      end else begin
        pat_d   = all_uniform ? PatUniform : PatStrided;
        words_d = all_uniform ? ngroups : ngroups << 1;
        for (int g = 0; g < MaxGroups; g++) begin
          if (grp_en[g]) begin
            base_d[32*g +: 32]   = grp_base[32*g +: 32];
            stride_d[32*g +: 32] = all_uniform ? 32'd0 : grp_stride[32*g +: 32];
          end
        end
      end
    end
`ifdef HD_FAULT_REGPAT_FLIP
    if (fault_flip_on && pat_d == PatStrided) begin
      stride_d[0] = ~stride_d[0];
    end
`endif
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o  <= 1'b0;
      pat_o    <= PatDead;
      base_o   <= '0;
      stride_o <= '0;
      words_o  <= '0;
    end else begin
      valid_o  <= valid_d;
      pat_o    <= pat_d;
      base_o   <= base_d;
      stride_o <= stride_d;
      words_o  <= words_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdRegpatCompLanes, Lanes == 32 && MaxGroups == Lanes / 8)
  `HD_ASSERT_KNOWN(HdRegpatCompValidKnown, valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatCompPatKnown, pat_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatCompBaseKnown, base_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatCompStrideKnown, stride_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatCompWordsKnown, words_o, clk_i, rst_ni)
  // Idle cycles carry zeros.
  `HD_ASSERT(HdRegpatCompIdleZero,
             valid_o || (pat_o == PatDead && base_o == '0 && stride_o == '0 && words_o == '0),
             clk_i, rst_ni)
  // The stored size follows the pattern.
  `HD_ASSERT(HdRegpatCompRandomWords, !(valid_o && pat_o == PatRandom) || words_o == 6'd32,
             clk_i, rst_ni)
  `HD_ASSERT(HdRegpatCompDeadWords, !(valid_o && pat_o == PatDead) || words_o == 6'd0,
             clk_i, rst_ni)
`ifndef HD_FAULT_REGPAT_FLIP
  // Only strided results carry strides.
  `HD_ASSERT(HdRegpatCompStrideOnlyStrided, pat_o == PatStrided || stride_o == '0, clk_i, rst_ni)
`endif

endmodule

// SPDX-License-Identifier: MIT
/**
 * regpat_tbcls - TB-level register pattern classifier (Lin thesis §2.3.3, Fig 2.11).
 *
 * Takes the warp-level compressor's result for one logical register, one warp of the thread
 * block per cycle (first_i on the first warp, last_i on the last), and classifies the register
 * over the whole TB: dead, random (some copy random, or dead while others live), global uniform
 * (strides all 0, bases all equal), local uniform (strides all 0), global strided (strides all
 * equal and non-zero, bases an arithmetic progression of step PAG * stride) or local strided.
 * Instead of Fig 2.11's base/stride vector buffers (N = 32 entries, too few for TB_size/PAG up
 * to 128) it keeps running comparisons against the first entry and the previous one, folding
 * the warp's 32/PAG groups in order within the cycle; TBs of any size are classified.
 *
 * Registered outputs: all (valid_o, cls_o, gbase_o, gstride_o), one cycle after last_i, 0 when
 * valid_o is 0. A valid input with first_i, or with no register open, starts a new register.
 * Bit-exact C reference: compressors/regpat_tbcls.c; ports: regpat_tbcls_ports.def.
 *
 * Parameters:
 *   ResetAll  1: the 32-bit accumulators (first base, previous base, base step, first stride)
 *             get the async reset too; 0: only flags and outputs (the flags qualify them).
 */
`include "../include/hd_assert.svh"

module regpat_tbcls #(
  parameter bit ResetAll = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         valid_i,
  input  logic         first_i,
  input  logic         last_i,
  input  logic [1:0]   pat_i,
  input  logic [1:0]   pag_i,
  input  logic [127:0] base_i,
  input  logic [127:0] stride_i,
  output logic         valid_o,
  output logic [2:0]   cls_o,
  output logic [31:0]  gbase_o,
  output logic [31:0]  gstride_o
);

  localparam int unsigned MaxGroups = 4;

  localparam logic [1:0] PatDead    = 2'b00;
  localparam logic [1:0] PatRandom  = 2'b10;

  localparam logic [2:0] ClsDead          = 3'd0;
  localparam logic [2:0] ClsRandom        = 3'd1;
  localparam logic [2:0] ClsGlobalUniform = 3'd2;
  localparam logic [2:0] ClsLocalUniform  = 3'd3;
  localparam logic [2:0] ClsGlobalStrided = 3'd4;
  localparam logic [2:0] ClsLocalStrided  = 3'd5;

  // Flags (always reset) and accumulators (reset with ResetAll).
  logic open_d, open_q, have_first_d, have_first_q, have_step_d, have_step_q;
  logic base_uni_d, base_uni_q, base_str_d, base_str_q;
  logic stride_uni_d, stride_uni_q, stride_zero_d, stride_zero_q;
  logic any_rand_d, any_rand_q, any_dead_d, any_dead_q, all_dead_d, all_dead_q;
  logic [31:0] first_base_d, first_base_q, prev_base_d, prev_base_q;
  logic [31:0] step_d, step_q, stride0_d, stride0_q;

  logic        valid_d;
  logic [2:0]  cls_d;
  logic [31:0] gbase_d, gstride_d;

  logic [2:0]  ngroups;
  logic [2:0]  pag_shift;  // log2(PAG)

  always_comb begin
    unique case (pag_i)
      2'd0:    begin ngroups = 3'd4; pag_shift = 3'd3; end
      2'd1:    begin ngroups = 3'd2; pag_shift = 3'd4; end
      default: begin ngroups = 3'd1; pag_shift = 3'd5; end  // 2'd2 and 2'd3: 32 lanes
    endcase
  end

  always_comb begin
    logic [31:0] b, s, diff;
    // Hold by default.
    open_d        = open_q;
    have_first_d  = have_first_q;
    have_step_d   = have_step_q;
    base_uni_d    = base_uni_q;
    base_str_d    = base_str_q;
    stride_uni_d  = stride_uni_q;
    stride_zero_d = stride_zero_q;
    any_rand_d    = any_rand_q;
    any_dead_d    = any_dead_q;
    all_dead_d    = all_dead_q;
    first_base_d  = first_base_q;
    prev_base_d   = prev_base_q;
    step_d        = step_q;
    stride0_d     = stride0_q;
    valid_d       = 1'b0;
    cls_d         = ClsDead;
    gbase_d       = '0;
    gstride_d     = '0;
    b             = '0;
    s             = '0;
    diff          = '0;
    if (valid_i) begin
      if (first_i || !open_q) begin
        have_first_d  = 1'b0;
        have_step_d   = 1'b0;
        base_uni_d    = 1'b1;
        base_str_d    = 1'b1;
        stride_uni_d  = 1'b1;
        stride_zero_d = 1'b1;
        any_rand_d    = 1'b0;
        any_dead_d    = 1'b0;
        all_dead_d    = 1'b1;
        first_base_d  = '0;
        prev_base_d   = '0;
        step_d        = '0;
        stride0_d     = '0;
      end
      if (pat_i == PatDead) begin
        any_dead_d = 1'b1;
      end else begin
        all_dead_d = 1'b0;
        if (pat_i == PatRandom) begin
          any_rand_d = 1'b1;
        end else begin
          // Fold the warp's groups in order (uniform or strided).
          for (int g = 0; g < MaxGroups; g++) begin
            if (3'(g) < ngroups) begin
              b = base_i[32*g +: 32];
              s = stride_i[32*g +: 32];
              if (!have_first_d) begin
                have_first_d = 1'b1;
                first_base_d = b;
                stride0_d    = s;
              end else begin
                diff = b - prev_base_d;
                if (!have_step_d) begin
                  have_step_d = 1'b1;
                  step_d      = diff;
                end else begin
                  base_str_d = base_str_d & (diff == step_d);
                end
                base_uni_d   = base_uni_d & (b == first_base_d);
                stride_uni_d = stride_uni_d & (s == stride0_d);
              end
              stride_zero_d = stride_zero_d & (s == '0);
              prev_base_d   = b;
            end
          end
        end
      end
      open_d = !last_i;
      if (last_i) begin
        valid_d = 1'b1;
        if (all_dead_d) begin
          cls_d = ClsDead;
        end else if (any_dead_d || any_rand_d) begin
          cls_d = ClsRandom;
        end else if (stride_zero_d) begin
          cls_d = base_uni_d ? ClsGlobalUniform : ClsLocalUniform;
        end else if (stride_uni_d && base_str_d &&
                     (!have_step_d || step_d == (stride0_d << pag_shift))) begin
          cls_d = ClsGlobalStrided;
        end else begin
          cls_d = ClsLocalStrided;
        end
        if (cls_d == ClsGlobalUniform || cls_d == ClsGlobalStrided) begin
          gbase_d = first_base_d;
        end
        if (cls_d == ClsGlobalStrided) begin
          gstride_d = stride0_d;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      open_q        <= 1'b0;
      have_first_q  <= 1'b0;
      have_step_q   <= 1'b0;
      base_uni_q    <= 1'b1;
      base_str_q    <= 1'b1;
      stride_uni_q  <= 1'b1;
      stride_zero_q <= 1'b1;
      any_rand_q    <= 1'b0;
      any_dead_q    <= 1'b0;
      all_dead_q    <= 1'b1;
      valid_o       <= 1'b0;
      cls_o         <= ClsDead;
      gbase_o       <= '0;
      gstride_o     <= '0;
    end else begin
      open_q        <= open_d;
      have_first_q  <= have_first_d;
      have_step_q   <= have_step_d;
      base_uni_q    <= base_uni_d;
      base_str_q    <= base_str_d;
      stride_uni_q  <= stride_uni_d;
      stride_zero_q <= stride_zero_d;
      any_rand_q    <= any_rand_d;
      any_dead_q    <= any_dead_d;
      all_dead_q    <= all_dead_d;
      valid_o       <= valid_d;
      cls_o         <= cls_d;
      gbase_o       <= gbase_d;
      gstride_o     <= gstride_d;
    end
  end

  if (ResetAll) begin : g_acc_reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        first_base_q <= '0;
        prev_base_q  <= '0;
        step_q       <= '0;
        stride0_q    <= '0;
      end else begin
        first_base_q <= first_base_d;
        prev_base_q  <= prev_base_d;
        step_q       <= step_d;
        stride0_q    <= stride0_d;
      end
    end
  end else begin : g_acc_noreset
    always_ff @(posedge clk_i) begin
      first_base_q <= first_base_d;
      prev_base_q  <= prev_base_d;
      step_q       <= step_d;
      stride0_q    <= stride0_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_KNOWN(HdRegpatTbclsValidKnown, valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatTbclsClsKnown, cls_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatTbclsGbaseKnown, gbase_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdRegpatTbclsGstrideKnown, gstride_o, clk_i, rst_ni)
  `HD_ASSERT(HdRegpatTbclsClsRange, cls_o <= ClsLocalStrided, clk_i, rst_ni)
  `HD_ASSERT(HdRegpatTbclsIdleZero,
             valid_o || (cls_o == ClsDead && gbase_o == '0 && gstride_o == '0), clk_i, rst_ni)
  // Protocol: a register continues only after it was started.
  `HD_ASSERT(HdRegpatTbclsContinueOpen, !(valid_i && !first_i) || open_q, clk_i, rst_ni)

endmodule

// SPDX-License-Identifier: MIT
/**
 * ctx_unpacker - the context restore path's unpacker (Lin thesis §2.7 restore; the mirror of
 * ctx_packer).
 *
 * Holds up to 64 words (two 128-byte segments) of a warp's record. Per cycle, at the rising edge,
 * in this order: (1) valid_i takes the next register's words from the front of the buffer, as
 * many as its pattern code and PAG select say (dead 0, uniform 32/PAG, strided 2*32/PAG, random
 * 32), and registers them as the decompressor's inputs (uniform: bases; strided: base/stride
 * pairs; random: the raw lanes); (2) align_i drops the rest of the current segment (buffered
 * words mod 32) at the end of the record; (3) seg_valid_i appends the next segment. Taking more
 * words than are buffered, or a segment without room, sets the sticky err_o (and the assertions
 * fire): the controller is expected to know the sizes from the pattern vector.
 *
 * Registered outputs: all. valid_o, pat_o, pag_o, base_o, stride_o, raw_o one cycle after the
 * input and 0 when valid_o is 0; count_o (words buffered) and err_o show the state.
 * Bit-exact C reference: compressors/ctx_unpacker.c; ports: ctx_unpacker_ports.def.
 *
 * Parameters:
 *   ResetAll  1: the 64-word buffer gets the async reset too (0: words at and above the count,
 *             which is always reset, are masked off wherever they are read).
 */
`include "../include/hd_assert.svh"

module ctx_unpacker #(
  parameter bit ResetAll = 1'b0
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          seg_valid_i,
  input  logic [1023:0] seg_i,
  input  logic          valid_i,
  input  logic [1:0]    pat_i,
  input  logic [1:0]    pag_i,
  input  logic          align_i,
  output logic          valid_o,
  output logic [1:0]    pat_o,
  output logic [1:0]    pag_o,
  output logic [127:0]  base_o,
  output logic [127:0]  stride_o,
  output logic [1023:0] raw_o,
  output logic [6:0]    count_o,
  output logic          err_o
);

  localparam int unsigned BufWords = 64;

  localparam logic [1:0] PatUniform = 2'b01;
  localparam logic [1:0] PatRandom  = 2'b10;
  localparam logic [1:0] PatStrided = 2'b11;

  logic [2047:0] buf_q, buf_d;
  logic [6:0]    cnt_q, cnt_d;
  logic          err_q, err_d;

  logic [2047:0] buf_keep;
  assign buf_keep = buf_q & ~({2048{1'b1}} << (12'(cnt_q) << 5));

  // Words of the presented register.
  logic [5:0] n;
  logic [2:0] groups;
  always_comb begin
    unique case (pag_i)
      2'd0:    groups = 3'd4;
      2'd1:    groups = 3'd2;
      default: groups = 3'd1;
    endcase
    unique case (pat_i)
      PatUniform: n = 6'(groups);
      PatStrided: n = 6'(groups) << 1;
      PatRandom:  n = 6'd32;
      default:    n = 6'd0;
    endcase
  end

  // The decompressor's inputs from the front of the buffer.
  logic [127:0]  base_d, stride_d;
  logic [1023:0] raw_d;
  always_comb begin
    base_d   = '0;
    stride_d = '0;
    raw_d    = '0;
    if (valid_i) begin
      unique case (pat_i)
        PatRandom: raw_d = buf_keep[1023:0];
        PatStrided: begin
          for (int g = 0; g < 4; g++) begin
            if (3'(g) < groups) begin
              base_d[32*g +: 32]   = buf_keep[64*g +: 32];
              stride_d[32*g +: 32] = buf_keep[64*g + 32 +: 32];
            end
          end
        end
        PatUniform: begin
          for (int g = 0; g < 4; g++) begin
            if (3'(g) < groups) begin
              base_d[32*g +: 32] = buf_keep[32*g +: 32];
            end
          end
        end
        default: ;
      endcase
    end
  end

  // Take, align, append.
  logic [6:0]    take, cnt_taken, drop, cnt_aligned;
  logic [2047:0] buf_taken, buf_aligned;
  logic          under, over;
  always_comb begin
    under       = valid_i && (7'(n) > cnt_q);
    take        = valid_i ? (under ? cnt_q : 7'(n)) : 7'd0;
    buf_taken   = buf_keep >> (12'(take) << 5);
    cnt_taken   = cnt_q - take;
    drop        = align_i ? {2'b00, cnt_taken[4:0]} : 7'd0;
    buf_aligned = buf_taken >> (12'(drop) << 5);
    cnt_aligned = cnt_taken - drop;
    over        = seg_valid_i && (cnt_aligned > 7'(BufWords - 32));
    buf_d       = buf_aligned;
    cnt_d       = cnt_aligned;
    if (seg_valid_i && !over) begin
      buf_d = buf_aligned | ({1024'd0, seg_i} << (12'(cnt_aligned) << 5));
      cnt_d = cnt_aligned + 7'd32;
    end
    err_d = err_q | under | over;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q    <= '0;
      err_q    <= 1'b0;
      valid_o  <= 1'b0;
      pat_o    <= '0;
      pag_o    <= '0;
      base_o   <= '0;
      stride_o <= '0;
      raw_o    <= '0;
    end else begin
      cnt_q    <= cnt_d;
      err_q    <= err_d;
      valid_o  <= valid_i;
      pat_o    <= valid_i ? pat_i : 2'd0;
      pag_o    <= valid_i ? pag_i : 2'd0;
      base_o   <= base_d;
      stride_o <= stride_d;
      raw_o    <= raw_d;
    end
  end
  assign count_o = cnt_q;
  assign err_o   = err_q;

  if (ResetAll) begin : g_dp_reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        buf_q <= '0;
      end else begin
        buf_q <= buf_d;
      end
    end
  end else begin : g_dp_noreset
    always_ff @(posedge clk_i) begin
      buf_q <= buf_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdCtxUnpackerSizes, BufWords == 64)
  `HD_ASSERT_KNOWN(HdCtxUnpackerValidKnown, valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdCtxUnpackerRawKnown, raw_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdCtxUnpackerCountKnown, count_o, clk_i, rst_ni)
  `HD_ASSERT(HdCtxUnpackerCountBound, cnt_q <= 7'(BufWords), clk_i, rst_ni)
  `HD_ASSERT(HdCtxUnpackerIdleZero,
             valid_o || (pat_o == '0 && pag_o == '0 && base_o == '0 && stride_o == '0 &&
                         raw_o == '0), clk_i, rst_ni)
  // Protocol (the controller's duty): no register without its words, no segment without room.
  `HD_ASSERT(HdCtxUnpackerNoUnderflow, !under, clk_i, rst_ni)
  `HD_ASSERT(HdCtxUnpackerNoOverflow, !over, clk_i, rst_ni)

endmodule

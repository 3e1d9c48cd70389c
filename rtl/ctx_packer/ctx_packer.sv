// SPDX-License-Identifier: MIT
/**
 * ctx_packer - the context save path's packer (Lin thesis §2.6-2.7, Fig 2.12/2.13).
 *
 * Takes one compressed register per cycle (regpat_comp's result plus the raw lanes) and appends
 * its stored words (uniform: the group bases; strided: base/stride pairs per group; random: the
 * 32 lanes; dead: none) to a 64-word buffer; when the buffer holds 32 words or more the first 32
 * leave as a 128-byte segment (the width Lin writes to global memory). Two segments of buffer
 * absorb a 32-word chunk that straddles a segment boundary, so the packer never stalls. The
 * register's 2-bit pattern code is appended to the warp's 128-bit pattern vector (entry k in
 * bits [2k+1:2k]), which leaves when it holds 64 codes. flush_i (end of the warp's record, in a
 * cycle without valid_i) sends the partial segment (seg_words_o < 32, rest zero, seg_last_o) and
 * the partial pattern vector and clears both: every warp's record starts on a segment boundary.
 *
 * Registered outputs: all (seg_valid_o, seg_o, seg_words_o, seg_last_o, pv_valid_o, pv_o,
 * pv_n_o), one cycle after the input, 0 when their valid is 0. The buffer and pattern vector
 * flops are datapath: reset only with ResetAll; words at and above the counts (which are always
 * reset) are masked off wherever they are read, so their contents never matter.
 * Bit-exact C reference: compressors/ctx_packer.c; ports: ctx_packer_ports.def.
 *
 * Parameters:
 *   ResetAll  1: the 64-word buffer and the pattern vector get the async reset too.
 */
`include "../include/hd_assert.svh"

module ctx_packer #(
  parameter bit ResetAll = 1'b0
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          valid_i,
  input  logic [1:0]    pat_i,
  input  logic [5:0]    words_i,
  input  logic [127:0]  base_i,
  input  logic [127:0]  stride_i,
  input  logic [1023:0] raw_i,
  input  logic          flush_i,
  output logic          seg_valid_o,
  output logic [1023:0] seg_o,
  output logic [5:0]    seg_words_o,
  output logic          seg_last_o,
  output logic          pv_valid_o,
  output logic [127:0]  pv_o,
  output logic [6:0]    pv_n_o
);

  localparam int unsigned SegWords = 32;
  localparam int unsigned PvRegs   = 64;

  localparam logic [1:0] PatUniform = 2'b01;
  localparam logic [1:0] PatRandom  = 2'b10;
  localparam logic [1:0] PatStrided = 2'b11;

  logic [2047:0] buf_q, buf_d;
  logic [5:0]    cnt_q, cnt_d;      // words in buf_q, < 32 between cycles
  logic [127:0]  pv_q, pv_d;
  logic [6:0]    pvn_q, pvn_d;      // codes in pv_q, < 64 between cycles

  ///////////////////////////////
  // The register's stored words //
  ///////////////////////////////

  logic [5:0]    n;                 // words stored, at most 32
  logic [1023:0] chunk;             // word i in bits [32i+31:32i], 0 above n

  assign n = (words_i > 6'd32) ? 6'd32 : words_i;

  always_comb begin
    chunk = '0;
    unique case (pat_i)
      PatRandom:  chunk = raw_i;
      PatStrided: begin
        for (int g = 0; g < 4; g++) begin
          chunk[64*g +: 32]      = base_i[32*g +: 32];
          chunk[64*g + 32 +: 32] = stride_i[32*g +: 32];
        end
      end
      PatUniform: chunk[127:0] = base_i;
      default:    chunk = '0;
    endcase
    for (int i = 0; i < 32; i++) begin
      if (6'(i) >= n) begin
        chunk[32*i +: 32] = 32'd0;
      end
    end
  end

  ////////////////////////////
  // Append, segment out    //
  ////////////////////////////

  logic [2047:0] appended;          // buffer with the chunk at word cnt_q
  logic [6:0]    total;             // cnt_q + n

  // Words at and above cnt_q (and codes at and above pvn_q) are don't-care in the flops: they
  // are masked off here, so the datapath needs no reset.
  logic [2047:0] buf_keep;
  logic [127:0]  pv_keep;
  assign buf_keep = buf_q & ~({2048{1'b1}} << (11'(cnt_q) << 5));
  assign pv_keep  = pv_q & ~({128{1'b1}} << (8'(pvn_q) << 1));
  assign appended = buf_keep | ({1024'd0, chunk} << (11'(cnt_q) << 5));
  assign total    = 7'(cnt_q) + 7'(n);

  logic          seg_valid_d, seg_last_d, pv_valid_d;
  logic [1023:0] seg_d;
  logic [5:0]    seg_words_d;
  logic [127:0]  pv_out_d;
  logic [6:0]    pv_n_d;
  logic [127:0]  pv_app;

  assign pv_app = pv_keep | (128'(pat_i) << (8'(pvn_q) << 1));

  always_comb begin
    buf_d       = buf_q;
    cnt_d       = cnt_q;
    pv_d        = pv_q;
    pvn_d       = pvn_q;
    seg_valid_d = 1'b0;
    seg_last_d  = 1'b0;
    seg_d       = '0;
    seg_words_d = '0;
    pv_valid_d  = 1'b0;
    pv_out_d    = '0;
    pv_n_d      = '0;
    if (valid_i) begin
      if (total >= 7'(SegWords)) begin
        seg_valid_d = 1'b1;
        seg_words_d = 6'(SegWords);
        seg_d       = appended[1023:0];
        buf_d       = {1024'd0, appended[2047:1024]};
        cnt_d       = 6'(total - 7'(SegWords));
      end else begin
        buf_d = appended;
        cnt_d = 6'(total);
      end
      if (pvn_q == 7'(PvRegs - 1)) begin
        pv_valid_d = 1'b1;
        pv_n_d     = 7'(PvRegs);
        pv_out_d   = pv_app;
        pv_d       = '0;
        pvn_d      = '0;
      end else begin
        pv_d  = pv_app;
        pvn_d = pvn_q + 7'd1;
      end
    end else if (flush_i) begin
      if (cnt_q != '0) begin
        seg_valid_d = 1'b1;
        seg_last_d  = 1'b1;
        seg_words_d = cnt_q;
        seg_d       = buf_keep[1023:0];
      end
      if (pvn_q != '0) begin
        pv_valid_d = 1'b1;
        pv_n_d     = pvn_q;
        pv_out_d   = pv_keep;
      end
      buf_d = '0;
      cnt_d = '0;
      pv_d  = '0;
      pvn_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q       <= '0;
      pvn_q       <= '0;
      seg_valid_o <= 1'b0;
      seg_o       <= '0;
      seg_words_o <= '0;
      seg_last_o  <= 1'b0;
      pv_valid_o  <= 1'b0;
      pv_o        <= '0;
      pv_n_o      <= '0;
    end else begin
      cnt_q       <= cnt_d;
      pvn_q       <= pvn_d;
      seg_valid_o <= seg_valid_d;
      seg_o       <= seg_d;
      seg_words_o <= seg_words_d;
      seg_last_o  <= seg_last_d;
      pv_valid_o  <= pv_valid_d;
      pv_o        <= pv_out_d;
      pv_n_o      <= pv_n_d;
    end
  end

  if (ResetAll) begin : g_dp_reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        buf_q <= '0;
        pv_q  <= '0;
      end else begin
        buf_q <= buf_d;
        pv_q  <= pv_d;
      end
    end
  end else begin : g_dp_noreset
    always_ff @(posedge clk_i) begin
      buf_q <= buf_d;
      pv_q  <= pv_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdCtxPackerSizes, SegWords == 32 && PvRegs == 64)
  `HD_ASSERT_KNOWN(HdCtxPackerSegValidKnown, seg_valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdCtxPackerPvValidKnown, pv_valid_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdCtxPackerSegKnown, seg_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdCtxPackerPvKnown, pv_o, clk_i, rst_ni)
  // Protocol: a flush comes in a cycle of its own.
  `HD_ASSERT(HdCtxPackerFlushAlone, !(valid_i && flush_i), clk_i, rst_ni)
  // Between cycles fewer than a segment's words and a vector's codes wait.
  `HD_ASSERT(HdCtxPackerCountBound, cnt_q < 6'(SegWords) && pvn_q < 7'(PvRegs), clk_i, rst_ni)
  // Idle cycles carry zeros; a full segment is never the record's last.
  `HD_ASSERT(HdCtxPackerIdleZero,
             seg_valid_o || (seg_o == '0 && seg_words_o == '0 && !seg_last_o), clk_i, rst_ni)
  `HD_ASSERT(HdCtxPackerPvIdleZero, pv_valid_o || (pv_o == '0 && pv_n_o == '0), clk_i, rst_ni)
  `HD_ASSERT(HdCtxPackerSegWords,
             !seg_valid_o || (seg_words_o != '0 && seg_words_o <= 6'(SegWords) &&
                              (seg_last_o || seg_words_o == 6'(SegWords))), clk_i, rst_ni)

endmodule

// SPDX-License-Identifier: MIT
/**
 * gpuduet_tbct - GPUDuet's TB Context Table, one per SM (Lin thesis §3.9, Table 3.4: 32 entries x
 * 45 bits).
 *
 * Per TB id: Valid (1), Absmask (NWT = 32: bit k = 1 while warp k of the TB is absent) and
 * Smemaddr (12: base of the TB's shared-memory context in the unified 128 B-unit space; present
 * iff SmemLo <= Smemaddr < SmemHi, i.e. 0x800..0xAFF, else spilled to the register file or L1D
 * by a TB-level switch of a shared-memory-limited kernel).
 *
 * Within one edge, in order: the finish clears an entry; the launch writes one whole (Valid = 1);
 * the CSL's TB move writes Absmask and Smemaddr of a valid entry; the CSL's warp move sets
 * (switched out) or clears (switched in) one Absmask bit of a valid entry. A read (rd_v_i)
 * returns the entry after that edge's updates, with the valid, shared-memory-present and whole
 * (valid, no warp absent) vectors over all TBs.
 *
 * Registered outputs: all, one cycle after rd_v_i; 0 in a cycle without a result. Bit-exact C
 * reference: tables/gpuduet_tbct.c; ports: gpuduet_tbct_ports.def.
 *
 * Parameters (configs/rtl/gpuduet_tbct.ini):
 *   NT  entries;  TW  TB id bits;  NWT  warps per TB (Absmask bits);  WTW  warp index bits
 *   AW  unified-space address bits;  SmemLo, SmemHi  the shared-memory region [SmemLo, SmemHi)
 */
`include "../include/hd_assert.svh"

module gpuduet_tbct #(
  parameter int unsigned NT     = 32,
  parameter int unsigned TW     = 5,
  parameter int unsigned NWT    = 32,
  parameter int unsigned WTW    = 5,
  parameter int unsigned AW     = 12,
  parameter int unsigned SmemLo = 2048,
  parameter int unsigned SmemHi = 2816
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           fin_v_i,
  input  logic [TW-1:0]  fin_tb_i,
  input  logic           ld_v_i,
  input  logic [TW-1:0]  ld_tb_i,
  input  logic [NWT-1:0] ld_abs_i,
  input  logic [AW-1:0]  ld_smem_i,
  input  logic           tm_v_i,
  input  logic [TW-1:0]  tm_tb_i,
  input  logic [NWT-1:0] tm_abs_i,
  input  logic [AW-1:0]  tm_smem_i,
  input  logic           wm_v_i,
  input  logic [TW-1:0]  wm_tb_i,
  input  logic [WTW-1:0] wm_warp_i,
  input  logic           wm_abs_i,
  input  logic           rd_v_i,
  input  logic [TW-1:0]  rd_tb_i,
  output logic           rd_v_o,
  output logic           rd_valid_o,
  output logic [NWT-1:0] rd_abs_o,
  output logic [AW-1:0]  rd_smem_o,
  output logic [NT-1:0]  rd_valids_o,
  output logic [NT-1:0]  rd_smemp_o,
  output logic [NT-1:0]  rd_whole_o
);

  // Entry t's fields in bits [t*W +: W] (flat vectors: Yosys 0.23 reads no packed 2-D arrays).
  logic [NT-1:0]     valid_d, valid_q;
  logic [NT*NWT-1:0] abs_d, abs_q;
  logic [NT*AW-1:0]  smem_d, smem_q;

  logic           rd_valid_d;
  logic [NWT-1:0] rd_abs_d;
  logic [AW-1:0]  rd_smem_d;
  logic [NT-1:0]  rd_valids_d, rd_smemp_d, rd_whole_d;

  always_comb begin
    valid_d = valid_q;
    abs_d   = abs_q;
    smem_d  = smem_q;
    for (int t = 0; t < NT; t++) begin
      if (fin_v_i && fin_tb_i == TW'(t)) begin
        valid_d[t]          = 1'b0;
        abs_d[t*NWT +: NWT] = '0;
        smem_d[t*AW +: AW]  = '0;
      end
      if (ld_v_i && ld_tb_i == TW'(t)) begin
        valid_d[t]          = 1'b1;
        abs_d[t*NWT +: NWT] = ld_abs_i;
        smem_d[t*AW +: AW]  = ld_smem_i;
      end
      if (tm_v_i && tm_tb_i == TW'(t) && valid_d[t]) begin
        abs_d[t*NWT +: NWT] = tm_abs_i;
        smem_d[t*AW +: AW]  = tm_smem_i;
      end
      if (wm_v_i && wm_tb_i == TW'(t) && valid_d[t]) begin
        for (int k = 0; k < NWT; k++) begin
          if (wm_warp_i == WTW'(k)) begin
            abs_d[t*NWT + k] = wm_abs_i;
          end
        end
      end
    end
  end

  always_comb begin
    rd_valid_d  = 1'b0;
    rd_abs_d    = '0;
    rd_smem_d   = '0;
    rd_valids_d = '0;
    rd_smemp_d  = '0;
    rd_whole_d  = '0;
    if (rd_v_i) begin
      for (int t = 0; t < NT; t++) begin
        if (rd_tb_i == TW'(t) && valid_d[t]) begin
          rd_valid_d = 1'b1;
          rd_abs_d   = abs_d[t*NWT +: NWT];
          rd_smem_d  = smem_d[t*AW +: AW];
        end
        rd_valids_d[t] = valid_d[t];
        rd_smemp_d[t]  = valid_d[t] && smem_d[t*AW +: AW] >= AW'(SmemLo) &&
                         smem_d[t*AW +: AW] < AW'(SmemHi);
        rd_whole_d[t]  = valid_d[t] && abs_d[t*NWT +: NWT] == '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q     <= '0;
      abs_q       <= '0;
      smem_q      <= '0;
      rd_v_o      <= 1'b0;
      rd_valid_o  <= 1'b0;
      rd_abs_o    <= '0;
      rd_smem_o   <= '0;
      rd_valids_o <= '0;
      rd_smemp_o  <= '0;
      rd_whole_o  <= '0;
    end else begin
      valid_q     <= valid_d;
      abs_q       <= abs_d;
      smem_q      <= smem_d;
      rd_v_o      <= rd_v_i;
      rd_valid_o  <= rd_valid_d;
      rd_abs_o    <= rd_abs_d;
      rd_smem_o   <= rd_smem_d;
      rd_valids_o <= rd_valids_d;
      rd_smemp_o  <= rd_smemp_d;
      rd_whole_o  <= rd_whole_d;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdGpuduetTbctWidth, NT >= 1 && NT <= (1 << TW) && NT <= 64 && NWT >= 1 &&
                                      NWT <= (1 << WTW) && NWT <= 64 && AW >= 2 && AW <= 32 &&
                                      SmemLo < SmemHi && SmemHi < (1 << AW))
  `HD_ASSERT_KNOWN(HdGpuduetTbctRdKnown, rd_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetTbctRdIdleZero,
             rd_v_o || (!rd_valid_o && rd_abs_o == '0 && rd_smem_o == '0 && rd_valids_o == '0 &&
                        rd_smemp_o == '0 && rd_whole_o == '0), clk_i, rst_ni)
  // Present and whole only for a launched TB.
  `HD_ASSERT(HdGpuduetTbctVecValid, ((rd_smemp_o | rd_whole_o) & ~rd_valids_o) == '0, clk_i, rst_ni)

endmodule

// SPDX-License-Identifier: MIT
/**
 * gpuduet_bitmap - GPUDuet's allocation bitmap over the unified on-chip storage, one per SM (Lin
 * thesis §3.7, Table 3.4: 3,072 bits, one per 128 B unit of RF 0x000-0x7FF, shared memory
 * 0x800-0xAFF and L1D 0xB00-0xBFF; a set bit = allocated).
 *
 * One operation at a time over 64-bit words, one word read and written per cycle (the map is a
 * 48 x 64 array):
 *   - allocation (al_*): scan the region's words from the lowest in a two-stage pipeline, one
 *     word per cycle. Stage 1 reads the word and computes, for every bit j, the free run ending
 *     at j: j minus the highest allocated bit at or below j (a 6-level parallel prefix), or the
 *     run carried from the previous word's top + j + 1 when there is none; hit[j] = run >= n.
 *     The word's top run is the next word's carry. Stage 2 (the next cycle) takes the registered
 *     hit vector: its lowest set bit ends the first-fit run (the first bit where the bit-serial
 *     count run = free ? run + 1 : 0 would reach n), and the run is set word by word (Mark);
 *     no hit by the region's last word: done, not ok. One cycle more than a bit-serial scan of
 *     the word in one cycle, which does not close timing (docs/blocks/gpuduet.md);
 *   - free (fr_*): clear [base, base + n) word by word.
 * Each marked word updates its region's free count by the number of bits that changed. A
 * request is taken while busy_o = 0 (free before allocation in one cycle; the allocation is
 * dropped); done_* one cycle after the last word; n = 0, region 3 or a free past the map: done
 * with ok = 0 one cycle after the request. rd_v_i: the three free counts after that edge.
 *
 * Outputs: busy_o from the FSM state; done_* and rd_* registered, 0 in a cycle without a result.
 * Bit-exact C reference: tables/gpuduet_bitmap.c; ports: gpuduet_bitmap_ports.def.
 *
 * Parameters (configs/rtl/gpuduet_bitmap.ini):
 *   Units  units (a multiple of 64);  AW  unit address bits, $clog2(Units)
 *   SmemLo, L1Lo  first unit of the shared-memory and L1D regions (multiples of 64)
 */
`include "../include/hd_assert.svh"

module gpuduet_bitmap #(
  parameter int unsigned Units  = 3072,
  parameter int unsigned AW     = 12,
  parameter int unsigned SmemLo = 2048,
  parameter int unsigned L1Lo   = 2816
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          al_v_i,
  input  logic [1:0]    al_region_i,
  input  logic [AW:0]   al_n_i,
  input  logic          fr_v_i,
  input  logic [AW-1:0] fr_base_i,
  input  logic [AW:0]   fr_n_i,
  input  logic          rd_v_i,
  output logic          busy_o,
  output logic          done_v_o,
  output logic          done_al_o,
  output logic          done_ok_o,
  output logic [AW-1:0] done_base_o,
  output logic          rd_v_o,
  output logic [AW:0]   rd_free_rf_o,
  output logic [AW:0]   rd_free_smem_o,
  output logic [AW:0]   rd_free_l1_o
);

  localparam int unsigned Words = Units / 64;
  localparam int unsigned WiW   = AW - 6;       // word index bits
  localparam int unsigned UW    = AW + 2;       // wide enough for base + n

  // FSM states (plain codes, not an enum: the mutants assign constants to them).
  localparam logic [1:0] Idle = 2'd0;
  localparam logic [1:0] Scan = 2'd1;
  localparam logic [1:0] Mark = 2'd2;

  logic [Units-1:0] map_d, map_q;
  logic [1:0]       fsm_d, fsm_q;
  logic             al_d, al_q;
  logic [WiW-1:0]   word_d, word_q, last_d, last_q;
  logic [AW:0]      run_d, run_q, n_d, n_q;
  logic [UW-1:0]    lo_d, lo_q, hi_d, hi_q;
  logic [AW:0]      frf_d, frf_q, fsh_d, fsh_q, fl1_d, fl1_q;  // free units: RF, shared memory, L1D

  logic          done_v_d, done_ok_d;
  logic [AW-1:0] done_base_d;

  // The word at hand (one read port) and the Mark's mask over it.
  logic          hv_d, hv_q;                     // stage 2 holds a word's hits
  logic [63:0]   hit_d, hit_q;                   // bit j: a run of n free units ends at j
  logic [WiW-1:0] hw_d, hw_q;                    // ... of this word
  logic [63:0]   has;                            // stage 1: an allocated bit at or below j
  logic [6*64-1:0] pos;                          // ... the highest one (6 bits per j)
  logic [AW:0]   carry;                          // the word's top run
  logic [63:0]   low;                            // stage 2: the lowest hit, one-hot
  logic [5:0]    lj;                             // ... its index
  logic [63:0]   cur, mask, changed;
  logic [6:0]    nchg;
  logic          found;
  logic [UW-1:0] w0, lo_new;
  logic [1:0]    wreg;                          // region of the word at hand

  always_comb begin
    cur = '0;
    for (int k = 0; k < Words; k++) begin
      if (word_q == WiW'(k)) begin
        cur = map_q[k*64 +: 64];
      end
    end
  end

  always_comb begin
    w0 = UW'({word_q, 6'b0});
    for (int j = 0; j < 64; j++) begin
      mask[j] = (w0 + UW'(j)) >= lo_q && (w0 + UW'(j)) < hi_q;
    end
    changed = al_q ? (mask & ~cur) : (mask & cur);
    nchg = '0;
    for (int j = 0; j < 64; j++) begin
      nchg = nchg + 7'(changed[j]);
    end
    wreg = (w0 < UW'(SmemLo)) ? 2'd0 : (w0 < UW'(L1Lo)) ? 2'd1 : 2'd2;
  end

  // Stage 1: the highest allocated bit at or below each j by a Kogge-Stone prefix (6 levels),
  // then the free run ending at j and whether it reaches n.
  always_comb begin
    logic [63:0]     h, hn;
    logic [6*64-1:0] p, pn;
    logic [AW:0]     r;
    logic [5:0]      d;
    h = cur;
    for (int j = 0; j < 64; j++) begin
      p[j*6 +: 6] = 6'(j);
    end
    for (int l = 0; l < 6; l++) begin
      hn = h;
      pn = p;
      for (int j = 0; j < 64; j++) begin
        if (j >= (1 << l) && !h[j]) begin
          hn[j]        = h[j - (1 << l)];
          pn[j*6 +: 6] = p[(j - (1 << l))*6 +: 6];
        end
      end
      h = hn;
      p = pn;
    end
    has   = h;
    pos   = p;
    hit_d = '0;
    carry = '0;
    for (int j = 0; j < 64; j++) begin
      d = 6'(j) - pos[j*6 +: 6];                  // bits pos+1 .. j are free
      r = has[j] ? (AW+1)'(d) : run_q + (AW+1)'(j + 1);
      hit_d[j] = r >= n_q;
      if (j == 63) begin
        carry = r;
      end
    end
  end

  // Stage 2: the lowest hit (isolated, then encoded by OR trees).
  always_comb begin
    low = hit_q & (~hit_q + 64'd1);
    for (int b = 0; b < 6; b++) begin
      lj[b] = 1'b0;
      for (int j = 0; j < 64; j++) begin
        if (((j >> b) & 1) == 1) begin
          lj[b] = lj[b] | low[j];
        end
      end
    end
  end

  always_comb begin
    map_d       = map_q;
    fsm_d       = fsm_q;
    al_d        = al_q;
    word_d      = word_q;
    last_d      = last_q;
    run_d       = run_q;
    n_d         = n_q;
    lo_d        = lo_q;
    hi_d        = hi_q;
    frf_d       = frf_q;
    hv_d        = 1'b0;
    hw_d        = hw_q;
    fsh_d   = fsh_q;
    fl1_d       = fl1_q;
    done_v_d    = 1'b0;
    done_ok_d   = 1'b0;
    done_base_d = '0;
    found       = 1'b0;
    lo_new      = '0;
    unique case (fsm_q)
      Idle: begin
        if (fr_v_i) begin
          al_d = 1'b0;
          if (fr_n_i == '0 || UW'(fr_base_i) + UW'(fr_n_i) > UW'(Units)) begin
            done_v_d = 1'b1;
          end else begin
            lo_d   = UW'(fr_base_i);
            hi_d   = UW'(fr_base_i) + UW'(fr_n_i);
            word_d = fr_base_i[AW-1:6];
            fsm_d  = Mark;
          end
        end else if (al_v_i) begin
          al_d = 1'b1;
          n_d  = al_n_i;
          if (al_region_i == 2'd3 || al_n_i == '0) begin
            done_v_d = 1'b1;
          end else begin
            run_d = '0;
            fsm_d = Scan;
            if (al_region_i == 2'd0) begin
              word_d = '0;
              last_d = WiW'(SmemLo / 64 - 1);
            end else if (al_region_i == 2'd1) begin
              word_d = WiW'(SmemLo / 64);
              last_d = WiW'(L1Lo / 64 - 1);
            end else begin
              word_d = WiW'(L1Lo / 64);
              last_d = WiW'(Words - 1);
            end
          end
        end
      end
      Scan: begin
        found = hv_q && hit_q != '0;
        if (found) begin                          // stage 2: the run ends in word hw_q
          lo_new = UW'({hw_q, lj}) + UW'(1) - UW'(n_q);
          lo_d   = lo_new;
          hi_d   = lo_new + UW'(n_q);
          word_d = lo_new[AW-1:6];
          fsm_d  = Mark;
        end else if (hv_q && hw_q == last_q) begin // the region's last word had no hit
          done_v_d = 1'b1;
          fsm_d    = Idle;
        end else begin                            // stage 1: word word_q
          hv_d  = 1'b1;
          hw_d  = word_q;
          run_d = carry;
          if (word_q != last_q) begin
            word_d = word_q + 1'b1;
          end
        end
      end
      Mark: begin
        for (int k = 0; k < Words; k++) begin
          if (word_q == WiW'(k)) begin
            map_d[k*64 +: 64] = al_q ? (cur | mask) : (cur & ~mask);
          end
        end
        if (wreg == 2'd0) begin
          frf_d = al_q ? frf_q - (AW+1)'(nchg) : frf_q + (AW+1)'(nchg);
        end else if (wreg == 2'd1) begin
          fsh_d = al_q ? fsh_q - (AW+1)'(nchg) : fsh_q + (AW+1)'(nchg);
        end else begin
          fl1_d = al_q ? fl1_q - (AW+1)'(nchg) : fl1_q + (AW+1)'(nchg);
        end
        if (hi_q <= w0 + UW'(64)) begin
          done_v_d    = 1'b1;
          done_ok_d   = 1'b1;
          done_base_d = al_q ? lo_q[AW-1:0] : '0;
          fsm_d       = Idle;
        end else begin
          word_d = word_q + 1'b1;
        end
      end
      default: begin
        fsm_d = Idle;
      end
    endcase
  end

  assign busy_o = fsm_q != Idle;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      map_q          <= '0;
      fsm_q          <= Idle;
      al_q           <= 1'b0;
      word_q         <= '0;
      last_q         <= '0;
      run_q          <= '0;
      hv_q           <= 1'b0;
      hit_q          <= '0;
      hw_q           <= '0;
      n_q            <= '0;
      lo_q           <= '0;
      hi_q           <= '0;
      frf_q          <= (AW+1)'(SmemLo);
      fsh_q      <= (AW+1)'(L1Lo - SmemLo);
      fl1_q          <= (AW+1)'(Units - L1Lo);
      done_v_o       <= 1'b0;
      done_al_o      <= 1'b0;
      done_ok_o      <= 1'b0;
      done_base_o    <= '0;
      rd_v_o         <= 1'b0;
      rd_free_rf_o   <= '0;
      rd_free_smem_o <= '0;
      rd_free_l1_o   <= '0;
    end else begin
      map_q          <= map_d;
      fsm_q          <= fsm_d;
      al_q           <= al_d;
      word_q         <= word_d;
      last_q         <= last_d;
      run_q          <= run_d;
      hv_q           <= hv_d;
      hit_q          <= hv_d ? hit_d : '0;
      hw_q           <= hw_d;
      n_q            <= n_d;
      lo_q           <= lo_d;
      hi_q           <= hi_d;
      frf_q          <= frf_d;
      fsh_q      <= fsh_d;
      fl1_q          <= fl1_d;
      done_v_o       <= done_v_d;
      done_al_o      <= done_v_d & al_d;
      done_ok_o      <= done_ok_d;
      done_base_o    <= done_base_d;
      rd_v_o         <= rd_v_i;
      rd_free_rf_o   <= rd_v_i ? frf_d : '0;
      rd_free_smem_o <= rd_v_i ? fsh_d : '0;
      rd_free_l1_o   <= rd_v_i ? fl1_d : '0;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdGpuduetBitmapWidth, Units % 64 == 0 && SmemLo % 64 == 0 && L1Lo % 64 == 0 &&
                                        0 < SmemLo && SmemLo < L1Lo && L1Lo < Units &&
                                        Units <= (1 << AW) && Units > (1 << (AW - 1)))
  `HD_ASSERT_KNOWN(HdGpuduetBitmapBusyKnown, busy_o, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdGpuduetBitmapDoneKnown, done_v_o, clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetBitmapDoneIdleZero,
             done_v_o || (!done_al_o && !done_ok_o && done_base_o == '0), clk_i, rst_ni)
  `HD_ASSERT(HdGpuduetBitmapRdIdleZero,
             rd_v_o || (rd_free_rf_o == '0 && rd_free_smem_o == '0 && rd_free_l1_o == '0),
             clk_i, rst_ni)
  // The free counts never exceed their regions.
  `HD_ASSERT(HdGpuduetBitmapCountRange, frf_q <= (AW+1)'(SmemLo) &&
             fsh_q <= (AW+1)'(L1Lo - SmemLo) && fl1_q <= (AW+1)'(Units - L1Lo), clk_i, rst_ni)

endmodule

// SPDX-License-Identifier: MIT
/**
 * alloc_bitmap_tb - self-checking testbench of the alloc_bitmap flow fixture (Icarus or
 * Verilator --timing). A behavioural model (an array of used flags) predicts every grant: the
 * lowest free unit, the free count and full. Seeded random requests (allocation-heavy, then
 * free-heavy, so the bitmap fills and drains), plus a clear. Prints "PASS <n> cycles" or stops
 * with the first mismatch.
 */
module alloc_bitmap_tb;
  parameter int unsigned Units = 37;
  parameter int unsigned Seed  = 1;
  localparam int unsigned IdxW = $clog2(Units);
  localparam int unsigned CntW = $clog2(Units + 1);

  logic clk = 1'b0, rst_n = 1'b0, clear = 1'b0, areq = 1'b0, freq = 1'b0;
  logic [IdxW-1:0] fidx = '0;
  logic gnt, full;
  logic [IdxW-1:0] aidx;
  logic [CntW-1:0] cnt;
  bit model_used [Units];
  int unsigned seed = Seed, cycles = 0, grants = 0;

  alloc_bitmap #(.Units(Units)) dut (
    .clk_i(clk), .rst_ni(rst_n), .clear_i(clear), .alloc_req_i(areq), .alloc_gnt_o(gnt),
    .alloc_idx_o(aidx), .free_req_i(freq), .free_idx_i(fidx), .free_count_o(cnt), .full_o(full)
  );

  always #5 clk = ~clk;

  function automatic int lowest_free();
    for (int i = 0; i < Units; i++) if (!model_used[i]) return i;
    return -1;
  endfunction

  function automatic int count_free();
    int n = 0;
    for (int i = 0; i < Units; i++) if (!model_used[i]) n++;
    return n;
  endfunction

  task automatic check();
    int lf = lowest_free();
    if (full !== (lf < 0)) $fatal(1, "cycle %0d: full_o %b, model lowest free %0d", cycles, full, lf);
    if (cnt !== CntW'(count_free())) $fatal(1, "cycle %0d: free_count_o %0d, model %0d", cycles, cnt, count_free());
    if (areq && !clear && lf >= 0 && (gnt !== 1'b1 || aidx !== IdxW'(lf)))
      $fatal(1, "cycle %0d: grant %b idx %0d, model %0d", cycles, gnt, aidx, lf);
    if (areq && lf < 0 && gnt !== 1'b0) $fatal(1, "cycle %0d: grant while full", cycles);
  endtask

  initial begin
    int used_list [$];
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    for (int phase = 0; phase < 4; phase++) begin
      for (int c = 0; c < 8 * Units; c++) begin
        int r = $urandom(seed) % 100;
        seed = seed * 1103515245 + 12345;
        // phases 0, 2: allocation-heavy; 1, 3: free-heavy
        areq = (r < ((phase % 2 == 0) ? 70 : 25));
        freq = 1'b0;
        used_list.delete();
        for (int i = 0; i < Units; i++) if (model_used[i]) used_list.push_back(i);
        if (used_list.size() > 0 && ($urandom(seed) % 100) < ((phase % 2 == 0) ? 25 : 70)) begin
          fidx = IdxW'(used_list[$urandom(seed) % used_list.size()]);
          freq = !(areq && lowest_free() == int'(fidx));
        end
        clear = (phase == 2 && c == Units);
        #1 check();
        @(posedge clk);
        if (clear) begin
          for (int i = 0; i < Units; i++) model_used[i] = 1'b0;
        end else begin
          if (freq) model_used[fidx] = 1'b0;
          if (gnt) begin model_used[aidx] = 1'b1; grants++; end
        end
        cycles++;
        @(negedge clk);
      end
    end
    $display("PASS %0d cycles, %0d grants", cycles, grants);
    $finish;
  end
endmodule

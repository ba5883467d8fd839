// Every bench module returns sections of this shape; bench/run.ts prints them as tables.

export interface BenchRow {
  /** What was measured, e.g. "headroom engine" or "p-limit". */
  name: string;
  /** The figure, already formatted with its unit, e.g. "1.23 M ops/s" or "p50 0.41 ms". */
  value: string;
  /** Ratio against the section's baseline, e.g. "1.12× p-limit". */
  ratio?: string;
}

export interface BenchSection {
  title: string;
  rows: BenchRow[];
  /** The target from the issue and whether this run met it, in words. */
  target?: { text: string; met: boolean };
  notes?: string[];
}

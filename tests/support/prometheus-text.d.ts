// Types for parse-prometheus-text-format (it ships none): prom2json's shape.
declare module "parse-prometheus-text-format" {
  export interface ParsedSample {
    labels?: Record<string, string>;
    value?: string;
    /** Histograms only: upper bound → cumulative count. */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: ParsedSample[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
